internal import CLuxKernels

/// Converts colours between two colour spaces (relative colorimetric, Bradford-adapted white).
///
/// The conversion is compiled once into three steps — decode the source transfer function, one 3×3
/// matrix (source primaries → XYZ → Bradford → destination primaries, derived in `Double`), encode the
/// destination transfer function — and then runs over whole rows. Row loops work on planes of `Float`
/// inside small stack chunks, so they vectorise and never allocate.
///
/// Values are unpremultiplied; alpha passes through unchanged. Non-extended sources are clamped to 0…1
/// before decoding and non-extended destinations after encoding; extended spaces keep every value.
///
/// ```swift
/// let toP3 = try ColorConverter(from: .sRGB, to: .displayP3)
/// toP3.convert(rgba8: srcRow, into: dstRow)
/// ```
public struct ColorConverter: Sendable {
    /// The space values are converted from.
    public let source: ColorSpace
    /// The space values are converted to.
    public let destination: ColorSpace

    /// The linear 3×3 step in `Double` (source linear → destination linear), including adaptation.
    public let matrix: Matrix3x3

    let decode: CurveStage
    let encode: CurveStage
    let linearMatrix: [Float]
    let matrixIsIdentity: Bool
    let sourceIsLab: Bool
    let destinationIsLab: Bool
    let sourceIsGray: Bool
    let decode8: [Float]
    /// For channel k and code c, the products `matrix[j][k] · decode8[c]` (j = 0, 1, 2, then a pad) at
    /// `1024·k + 4·c + j`: an 8-bit pixel's linear destination values are three entries summed.
    let decodeMatrix8: [Float]
    let encodeTable16: [UInt8]
    let halfTables = HalfCurveTables()

    /// Whether the conversion changes nothing (other than clamping).
    public var isIdentity: Bool {
        matrixIsIdentity && decode.kind == .identity && encode.kind == .identity && !sourceIsLab && !destinationIsLab
    }

    /// Creates a converter.
    ///
    /// - Throws: ``ColorError/unsupportedConversion(from:to:reason:)`` when either space has no matrix.
    public init(from source: ColorSpace, to destination: ColorSpace) throws(ColorError) {
        self.source = source
        self.destination = destination
        sourceIsLab = source.model == .lab
        destinationIsLab = destination.model == .lab
        sourceIsGray = source.model == .gray

        // Source linear → XYZ (source white).
        let toXYZ: Matrix3x3
        switch source.model {
        case .lab, .xyz: toXYZ = .identity
        case .gray:
            let w = source.whitePoint.xyz()
            toXYZ = Matrix3x3([w.x, 0, 0, 1, 0, 0, w.z, 0, 0])  // channel 0 holds Y
        case .rgb(let p):
            guard let m = p.matrixToXYZ(white: source.whitePoint) else {
                throw .unsupportedConversion(from: source.name, to: destination.name, reason: "collinear primaries")
            }
            toXYZ = m
        }
        // XYZ (destination white) → destination linear.
        let fromXYZ: Matrix3x3
        switch destination.model {
        case .lab, .xyz: fromXYZ = .identity
        case .gray: fromXYZ = Matrix3x3([0, 1, 0, 0, 1, 0, 0, 1, 0])  // Y replicated into three channels
        case .rgb(let p):
            guard let m = p.matrixToXYZ(white: destination.whitePoint)?.inverse else {
                throw .unsupportedConversion(from: source.name, to: destination.name, reason: "collinear primaries")
            }
            fromXYZ = m
        }
        let adapt = ChromaticAdaptation.bradford(from: source.whitePoint, to: destination.whitePoint)
        let m = fromXYZ * adapt * toXYZ
        matrix = m
        linearMatrix = m.entries.map { Float($0) }
        matrixIsIdentity = m.isIdentity(tolerance: 1e-7)

        decode = CurveStage.decoding(
            source.transferFunction, clamps: !source.isExtendedRange, mirrors: source.isExtendedRange)
        encode = CurveStage.encoding(
            destination.transferFunction, clamps: !destination.isExtendedRange,
            mirrors: destination.isExtendedRange)

        // 8-bit tables: 256 decoded values, and an encoder indexed by linear value in 1/65535 steps.
        var d8 = (0..<256).map { Float($0) / 255 }
        let decodeStage = decode
        d8.withUnsafeMutableBufferPointer { decodeStage.apply($0.baseAddress!, 256) }
        decode8 = d8
        let columns = matrixIsIdentity ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : linearMatrix
        decodeMatrix8 = (0..<3072).map { i in
            let (k, c, j) = (i / 1024, i % 1024 / 4, i % 4)
            return j == 3 ? 0 : columns[3 * j + k] * d8[c]
        }
        var e16 = [Float](repeating: 0, count: 65536)
        for i in 0..<65536 { e16[i] = Float(i) / 65535 }
        let encodeStage = encode
        e16.withUnsafeMutableBufferPointer { encodeStage.apply($0.baseAddress!, 65536) }
        encodeTable16 = e16.map { UInt8(min(max($0, 0), 1) * 255 + 0.5) }
    }

    // MARK: Single values (exact, in Double)

    /// Converts one colour exactly (in `Double`, with the reference transfer functions).
    ///
    /// For gray sources the first component is the gray value; gray destinations return it in all three.
    public func convert(_ value: SIMD3<Double>) -> SIMD3<Double> {
        var v = value
        if !source.isExtendedRange && source.model != .lab && source.model != .xyz {
            v = v.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        }
        if sourceIsLab {
            v = Lab.toXYZ(v, white: source.whitePoint)
        } else {
            let tf = source.transferFunction
            v = SIMD3(tf.linear(fromEncoded: v.x), tf.linear(fromEncoded: v.y), tf.linear(fromEncoded: v.z))
        }
        v = matrix * v
        if destinationIsLab {
            return Lab.fromXYZ(v, white: destination.whitePoint)
        }
        let tf = destination.transferFunction
        v = SIMD3(tf.encoded(fromLinear: v.x), tf.encoded(fromLinear: v.y), tf.encoded(fromLinear: v.z))
        if !destination.isExtendedRange && destination.model != .xyz {
            v = v.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        }
        return v
    }

    /// Converts one RGBA pixel with the same arithmetic as the row loops (alpha unchanged).
    public func convert(_ pixel: SIMD4<Float>) -> SIMD4<Float> {
        var p = pixel
        withUnsafeMutablePointer(to: &p) { ptr in
            ptr.withMemoryRebound(to: Float.self, capacity: 4) { convertInPlace(rgba: $0, count: 1) }
        }
        return p
    }

    // MARK: Rows

    /// The number of pixels processed per stack chunk.
    static let chunk = 256

    /// Converts `count` interleaved RGBA `Float` pixels in place.
    public func convertInPlace(rgba pixels: UnsafeMutablePointer<Float>, count: Int) {
        if isIdentity && !decode.clamps && !encode.clamps { return }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * Self.chunk) { scratch in
            let r = scratch.baseAddress!
            let g = r + Self.chunk
            let b = g + Self.chunk
            var start = 0
            while start < count {
                let n = min(Self.chunk, count - start)
                let p = pixels + 4 * start
                Self.deinterleave(p, r, g, b, n, grayReplicate: sourceIsGray)
                runPlanes(r, g, b, n)
                Self.interleave(r, g, b, p, n)
                start += n
            }
        }
    }

    /// Converts `count` pixels held as three separate planes of `Float` in place.
    ///
    /// The planar form of ``convertInPlace(rgba:count:)`` with the same arithmetic, for callers that keep
    /// rows as structure-of-arrays (the render engine's fused programs). The three planes must not overlap.
    /// For gray sources the gray value is read from `red`.
    public func convertInPlace(
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>,
        count: Int
    ) {
        if isIdentity && !decode.clamps && !encode.clamps { return }
        if sourceIsGray {
            green.update(from: red, count: count)
            blue.update(from: red, count: count)
        }
        runPlanes(red, green, blue, count)
    }

    /// Converts `count` interleaved RGBA `Float` pixels from `source` into `destination` (alpha copied).
    public func convert(rgba src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Float>, count: Int) {
        if src != UnsafePointer(dst) { dst.update(from: src, count: 4 * count) }
        convertInPlace(rgba: dst, count: count)
    }

    /// Converts a row of `SIMD4<Float>` RGBA pixels in place.
    public func convertInPlace(_ pixels: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        guard let base = pixels.baseAddress else { return }
        UnsafeMutableRawPointer(base).withMemoryRebound(to: Float.self, capacity: 4 * pixels.count) {
            convertInPlace(rgba: $0, count: pixels.count)
        }
    }

    /// Converts `count` interleaved RGBA half-float pixels (alpha copied); `src` and `dst` may be the same.
    ///
    /// Decoding goes through a table over all half values (built on the first call). Destinations that clip
    /// to 0…1 also encode through a table indexed by the linear value rounded to half (scaled by 2⁸ to
    /// keep precision near black), so results are within 1.5 half-float ULPs of the exact conversion;
    /// extended-range destinations encode in `Float` (within 0.5 ULP).
    public func convert(rgbaHalf src: UnsafePointer<Float16>, into dst: UnsafeMutablePointer<Float16>, count: Int) {
        UnsafeRawPointer(src).withMemoryRebound(to: UInt16.self, capacity: 4 * count) { s in
            UnsafeMutableRawPointer(dst).withMemoryRebound(to: UInt16.self, capacity: 4 * count) { d in
                convertHalfRows(s, d, count)
            }
        }
    }

    /// Converts `count` interleaved 8-bit RGBA pixels (alpha copied).
    ///
    /// Values go through 8-bit decode and 16-bit-precision encode tables, so the result is within 0.06 levels of the
    /// exact conversion before rounding.
    public func convert(rgba8 src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, count: Int) {
        if !sourceIsLab, !destinationIsLab, !sourceIsGray {
            // The same products and sums in one pass: each code's decoded value times a matrix column, by table.
            decodeMatrix8.withUnsafeBufferPointer { table in
                encodeTable16.withUnsafeBufferPointer { enc in
                    lux_rgba8_convert_table(src, dst, count, table.baseAddress, enc.baseAddress)
                }
            }
            return
        }
        decode8.withUnsafeBufferPointer { dec in
            encodeTable16.withUnsafeBufferPointer { enc in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * Self.chunk) { scratch in
                    let r = scratch.baseAddress!
                    let g = r + Self.chunk
                    let b = g + Self.chunk
                    var start = 0
                    while start < count {
                        let n = min(Self.chunk, count - start)
                        let s = src + 4 * start
                        let d = dst + 4 * start
                        Self.lookup8(s, dec.baseAddress!, r, g, b, n, grayReplicate: sourceIsGray)
                        runMiddle(r, g, b, n)
                        Self.encode8(r, g, b, s, d, enc.baseAddress!, n)
                        start += n
                    }
                }
            }
        }
    }

    // MARK: Plane stages

    @inline(__always)
    func runPlanes(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        if !sourceIsLab {
            decode.apply(r, n)
            decode.apply(g, n)
            decode.apply(b, n)
        }
        runMiddle(r, g, b, n)
        if !destinationIsLab {
            encode.apply(r, n)
            encode.apply(g, n)
            encode.apply(b, n)
        }
    }

    /// Lab decoding, the matrix and Lab encoding (everything between the two curves).
    @inline(__always)
    func runMiddle(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        if sourceIsLab { Self.labToXYZ(r, g, b, n, white: source.whitePoint.xyz()) }
        if !matrixIsIdentity {
            linearMatrix.withUnsafeBufferPointer { Self.applyMatrix($0.baseAddress!, r, g, b, n) }
        }
        if destinationIsLab { Self.xyzToLab(r, g, b, n, white: destination.whitePoint.xyz()) }
    }

    @inline(never)
    static func deinterleave(
        _ p: UnsafeMutablePointer<Float>, _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>, _ n: Int, grayReplicate: Bool
    ) {
        if grayReplicate {
            for i in 0..<n {
                r[i] = p[4 * i]
                g[i] = p[4 * i]
                b[i] = p[4 * i]
            }
        } else {
            for i in 0..<n {
                r[i] = p[4 * i]
                g[i] = p[4 * i + 1]
                b[i] = p[4 * i + 2]
            }
        }
    }

    @inline(never)
    static func interleave(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
        _ p: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        for i in 0..<n {
            p[4 * i] = r[i]
            p[4 * i + 1] = g[i]
            p[4 * i + 2] = b[i]
        }
    }

    @inline(never)
    static func applyMatrix(
        _ m: UnsafePointer<Float>, _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        lux_matrix3_planes(m, r, g, b, n)
    }

    @inline(never)
    static func lookup8(
        _ s: UnsafePointer<UInt8>, _ table: UnsafePointer<Float>, _ r: UnsafeMutablePointer<Float>,
        _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ n: Int, grayReplicate: Bool
    ) {
        lookupPlanes(s, table, r, g, b, n, grayReplicate: grayReplicate)
    }

    @inline(never)
    static func encode8(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
        _ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ table: UnsafePointer<UInt8>, _ n: Int
    ) {
        for i in 0..<n {
            let ri = nearestIndex(clampUnit(r[i]) * 65535)
            let gi = nearestIndex(clampUnit(g[i]) * 65535)
            let bi = nearestIndex(clampUnit(b[i]) * 65535)
            d[4 * i] = table[ri]
            d[4 * i + 1] = table[gi]
            d[4 * i + 2] = table[bi]
            d[4 * i + 3] = s[4 * i + 3]
        }
    }

    @inline(never)
    static func labToXYZ(
        _ l: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>, _ bb: UnsafeMutablePointer<Float>,
        _ n: Int, white: SIMD3<Double>
    ) {
        let eps = Float(Lab.epsilon)
        let kappa = Float(Lab.kappa)
        let wx = Float(white.x)
        let wy = Float(white.y)
        let wz = Float(white.z)
        for i in 0..<n {
            let fy = (l[i] + 16) / 116
            let fx = fy + a[i] / 500
            let fz = fy - bb[i] / 200
            let fx3 = fx * fx * fx
            let fz3 = fz * fz * fz
            let x = fx3 > eps ? fx3 : (116 * fx - 16) / kappa
            let y = l[i] > kappa * eps ? fy * fy * fy : l[i] / kappa
            let z = fz3 > eps ? fz3 : (116 * fz - 16) / kappa
            l[i] = x * wx
            a[i] = y * wy
            bb[i] = z * wz
        }
    }

    @inline(never)
    static func xyzToLab(
        _ x: UnsafeMutablePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ z: UnsafeMutablePointer<Float>,
        _ n: Int, white: SIMD3<Double>
    ) {
        let eps = Float(Lab.epsilon)
        let kappa = Float(Lab.kappa)
        let ix = Float(1 / white.x)
        let iy = Float(1 / white.y)
        let iz = Float(1 / white.z)
        @inline(__always) func f(_ t: Float) -> Float {
            let c = fastExp2(fastLog2(abs(t)) / 3)
            return t > eps ? c : (kappa * t + 16) / 116
        }
        for i in 0..<n {
            let fx = f(x[i] * ix)
            let fy = f(y[i] * iy)
            let fz = f(z[i] * iz)
            x[i] = 116 * fy - 16
            y[i] = 500 * (fx - fy)
            z[i] = 200 * (fy - fz)
        }
    }
}
