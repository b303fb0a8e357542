import CLuxKernels
public import LuxCodecs
public import LuxPixels
import Synchronization

/// Gives every prepared sensor a distinct identity (part of the render cache keys).
private let sensorCounter = Atomic<UInt64>(0)

/// Stage 2 of the pipeline: stored sensor codes to linear, normalised, white-balanced mosaic values (DNG
/// specification chapter 5; FORMATS.md §2.3).
///
/// For each photosite of the active area: the LinearizationTable (if any), minus the black level of its cell
/// of the BlackLevel repeat pattern plus BlackLevelDeltaH/V, divided by `WhiteLevel − max(black)`, times the
/// lens-shading gains of OpcodeList2 (GainMap, FixVignetteRadial) and the white-balance gain of its colour.
/// Values are not clipped: a clipped photosite reads 1 × its gain, noise below black stays negative.
///
/// AnalogBalance is not divided out here: as in the DNG SDK it is part of the camera model
/// (`XYZtoCamera = AB · CC · CM`), so neutrals and matrices account for it.
///
/// Reading is region by region (``read(x:y:width:height:gains:into:rowStride:)``): outside the active
/// area the mosaic is reflected about its edge photosites, which keeps the colour phase, so demosaicers get
/// full support at the borders. Nothing full-size is allocated.
public struct SensorLinearization: Sendable {
    /// The stored samples of the active area (a zero-copy view of the raw buffer).
    public let pixels: PixelBuffer
    /// Width of the active area.
    public let width: Int
    /// Height of the active area.
    public let height: Int
    /// The colour filter array at the active area's top-left photosite.
    public let layout: MosaicLayout
    /// The Bayer layout at the active area's top-left photosite (`nil` for X-Trans).
    public var pattern: CFAPattern? {
        if case .bayer(let p) = layout { return p }
        return nil
    }
    /// Whether GainMap / FixVignetteRadial corrections from the opcode lists are applied.
    public var appliesLensShading: Bool

    let table: [Float]?
    let blackRows: Int
    let blackColumns: Int
    let blackCells: [Float]
    let deltaH: [Float]?
    let deltaV: [Float]?
    let scale: Float
    let gainMaps: [GainMap]
    let vignette: FixVignetteRadial?
    let isFloat: Bool
    /// A process-unique number for cache keys.
    let identity: UInt64

    /// Prepares the linearisation of a raw image.
    ///
    /// - Throws: ``RAWError/unsupported(_:)`` for CFA layouts other than 2×2 RGB Bayer and 6×6 X-Trans and for Linear
    ///   Raw data (see ``LinearRawSensor``); ``RAWError/noPixelData(_:)`` when the buffer is smaller than the
    ///   description.
    public init(_ raw: RawImage, appliesLensShading: Bool = true) throws(RAWError) {
        let p = raw.properties
        guard p.photometric == .colorFilterArray, p.samplesPerPixel == 1 else {
            throw .unsupported("Linear Raw (demosaiced) data in a colour-filter-array stage")
        }
        guard let layout = p.cfa.flatMap(MosaicLayout.init) else {
            throw .unsupported(
                "the CFA layout \(p.cfa.map { "\($0)" } ?? "(missing)"); 2×2 RGB Bayer and 6×6 X-Trans layouts are "
                    + "developed")
        }
        let area = p.activeArea
        guard raw.pixels.width >= area.right, raw.pixels.height >= area.bottom, !area.isEmpty else {
            throw .noPixelData(
                "the pixel buffer (\(raw.pixels.width)×\(raw.pixels.height)) does not cover the active area \(area)")
        }
        let componentType = raw.pixels.format.componentType
        guard componentType == .uint16 || componentType == .float32, raw.pixels.format.channelCount == 1 else {
            throw .unsupported("raw samples in \(raw.pixels.format); expected 16-bit or float single-sample data")
        }
        pixels = raw.activePixels
        width = area.width
        height = area.height
        self.layout = layout
        self.appliesLensShading = appliesLensShading
        isFloat = componentType == .float32
        identity = sensorCounter.add(1, ordering: .relaxed).newValue
        if let t = p.linearizationTable, !t.isEmpty {
            table = t.map(Float.init)
        } else {
            table = nil
        }
        let black = p.blackLevel
        guard (1...64).contains(black.repeatRows), (1...64).contains(black.repeatColumns) else {
            throw .unsupported(
                "a BlackLevel repeat pattern of \(black.repeatRows)×\(black.repeatColumns); 1…64 per side")
        }
        if let dh = black.deltaH, dh.count < area.width {
            throw .unsupported("BlackLevelDeltaH with \(dh.count) values for an active area \(area.width) wide")
        }
        if let dv = black.deltaV, dv.count < area.height {
            throw .unsupported("BlackLevelDeltaV with \(dv.count) values for an active area \(area.height) high")
        }
        blackRows = black.repeatRows
        blackColumns = black.repeatColumns
        let planes = max(1, black.planes)
        blackCells = (0..<(blackRows * blackColumns)).map { i in
            let v = i * planes < black.values.count ? black.values[i * planes] : (black.values.first ?? 0)
            return Float(v)
        }
        deltaH = black.deltaH.map { $0.map(Float.init) }
        deltaV = black.deltaV.map { $0.map(Float.init) }
        let white = p.whiteLevel.first ?? 65535
        let span = white - black.maximum
        scale = span > 0 ? Float(1 / span) : 1
        var maps: [GainMap] = []
        var vignette: FixVignetteRadial?
        for op in p.opcodeList2 {
            switch op.operation {
            case .gainMap(let g) where g.isUsable: maps.append(g)
            case .fixVignetteRadial(let v): vignette = v
            default: break
            }
        }
        for op in p.opcodeList3 {
            if case .fixVignetteRadial(let v) = op.operation { vignette = v }
        }
        gainMaps = maps
        self.vignette = vignette
    }

    /// The photosite that stands for coordinate `i` of an axis of `n` (``MosaicLayout/edge(_:_:)``).
    @inline(__always)
    func edge(_ i: Int, _ n: Int) -> Int { layout.edge(i, n) }

    /// The colour of active-area photosite `(x, y)` (0 red, 1 green, 2 blue).
    @inline(__always)
    public func color(x: Int, y: Int) -> Int { layout.channel(x: x, y: y).rawValue }

    /// Reads linear values of the region `x..<x+width`, `y..<y+height` (active-area coordinates; outside the
    /// area photosites of the same phase stand in, see ``edge(_:_:)``) into `dst`, multiplied by `gains` (red, green,
    /// blue).
    public func read(
        x x0: Int, y y0: Int, width w: Int, height h: Int, gains: SIMD3<Float>, into dst: UnsafeMutablePointer<Float>,
        rowStride: Int
    ) {
        pixels.withUnsafePlane { plane in
            for j in 0..<h {
                let sy = edge(y0 + j, height)
                let d = dst + j * rowStride
                readRow(plane, sy: sy, x0: x0, count: w, gains: gains, into: d)
                if appliesLensShading && (!gainMaps.isEmpty || vignette != nil) {
                    applyShading(row: sy, x0: x0, count: w, into: d)
                }
            }
        }
    }

    /// One output row: the part inside the area in a vectorisable loop, reflected columns one by one.
    private func readRow(
        _ plane: RawPlane, sy: Int, x0: Int, count w: Int, gains: SIMD3<Float>, into d: UnsafeMutablePointer<Float>
    ) {
        // Per-parity factors: colour gain / span, black of the cell.
        let evenColor = color(x: 0, y: sy)
        let oddColor = color(x: 1, y: sy)
        let k0 = gains[evenColor] * scale
        let k1 = gains[oddColor] * scale
        let cellRow = (sy % blackRows) * blackColumns
        let dv = deltaV.map { $0[sy] } ?? 0
        let lo = max(x0, 0)
        let hi = min(x0 + w, width)
        if layout.period != 2, lo < hi {
            readPeriodicRow(plane, sy: sy, lo: lo, hi: hi, gains: gains, into: d + (lo - x0))
            for x in x0..<lo { d[x - x0] = value(plane, x: edge(x, width), y: sy, gains: gains) }
            for x in hi..<(x0 + w) {
                d[x - x0] = value(plane, x: edge(x, width), y: sy, gains: gains)
            }
        } else if blackColumns <= 2 && lo < hi {
            let b0 = blackCells[cellRow] + dv
            let b1 = blackCells[cellRow + (blackColumns == 2 ? 1 : 0)] + dv
            let out = d + (lo - x0)
            let n = hi - lo
            let parity = lo & 1
            if isFloat {
                let s = plane.row(sy, as: Float.self) + lo
                Self.linearize(s, n, parity, b0, b1, k0, k1, deltaH, lo, out)
            } else if let table {
                let s = plane.row(sy, as: UInt16.self) + lo
                table.withUnsafeBufferPointer { t in
                    Self.linearize(s, n, t.baseAddress!, t.count, parity, b0, b1, k0, k1, out)
                }
                if let deltaH { Self.subtractDelta(deltaH, lo, n, parity, k0, k1, out) }
            } else {
                let s = plane.row(sy, as: UInt16.self) + lo
                Self.linearize(s, n, parity, b0, b1, k0, k1, out)
                if let deltaH { Self.subtractDelta(deltaH, lo, n, parity, k0, k1, out) }
            }
            for x in x0..<lo { d[x - x0] = value(plane, x: edge(x, width), y: sy, gains: gains) }
            for x in hi..<(x0 + w) {
                d[x - x0] = value(plane, x: edge(x, width), y: sy, gains: gains)
            }
        } else {
            for x in x0..<(x0 + w) {
                d[x - x0] = value(plane, x: edge(x, width), y: sy, gains: gains)
            }
        }
    }

    /// Columns `lo..<hi` of row `sy` for layouts with a longer period (X-Trans): the factors and blacks of one period
    /// of columns, then one pass.
    private func readPeriodicRow(
        _ plane: RawPlane, sy: Int, lo: Int, hi: Int, gains: SIMD3<Float>, into out: UnsafeMutablePointer<Float>
    ) {
        let period = layout.period * blackColumns / Self.gcd(layout.period, blackColumns)
        let cellRow = (sy % blackRows) * blackColumns
        let dv = deltaV.map { $0[sy] } ?? 0
        var k = [Float](repeating: 0, count: period)
        var b = [Float](repeating: 0, count: period)
        for j in 0..<period {
            let x = lo + j
            k[j] = gains[color(x: x, y: sy)] * scale
            b[j] = blackCells[cellRow + x % blackColumns] + dv
        }
        let n = hi - lo
        k.withUnsafeBufferPointer { k in
            b.withUnsafeBufferPointer { b in
                for i in 0..<n {
                    let x = lo + i
                    var v: Float
                    if isFloat {
                        v = plane.row(sy, as: Float.self)[x]
                    } else {
                        let code = Int(plane.row(sy, as: UInt16.self)[x])
                        v = table.map { $0[min(code, $0.count - 1)] } ?? Float(code)
                    }
                    if let deltaH { v -= deltaH[x] }
                    let j = i % period
                    out[i] = (v - b[j]) * k[j]
                }
            }
        }
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The linear value of one photosite (without lens shading).
    func value(_ plane: RawPlane, x: Int, y: Int, gains: SIMD3<Float>) -> Float {
        var v: Float
        if isFloat {
            v = plane.row(y, as: Float.self)[x]
        } else {
            let code = Int(plane.row(y, as: UInt16.self)[x])
            if let table { v = table[min(code, table.count - 1)] } else { v = Float(code) }
        }
        var black = blackCells[(y % blackRows) * blackColumns + x % blackColumns]
        if let deltaH { black += deltaH[x] }
        if let deltaV { black += deltaV[y] }
        return (v - black) * scale * gains[color(x: x, y: y)]
    }

    @inline(never)
    static func linearize(
        _ s: UnsafePointer<UInt16>, _ n: Int, _ parity: Int, _ b0: Float, _ b1: Float, _ k0: Float, _ k1: Float,
        _ out: UnsafeMutablePointer<Float>
    ) {
        // `(Float(s[i]) − black) · scale` with the values of the column's parity, in C (8 lanes with AVX2).
        if parity == 0 {
            lux_linearize_u16(s, b0, b1, k0, k1, out, n)
        } else {
            lux_linearize_u16(s, b1, b0, k1, k0, out, n)
        }
    }

    @inline(never)
    static func linearize(
        _ s: UnsafePointer<UInt16>, _ n: Int, _ table: UnsafePointer<Float>, _ count: Int, _ parity: Int,
        _ b0: Float, _ b1: Float, _ k0: Float, _ k1: Float, _ out: UnsafeMutablePointer<Float>
    ) {
        let last = count - 1
        for i in 0..<n {
            let even = (i + parity) & 1 == 0
            out[i] = (table[min(Int(s[i]), last)] - (even ? b0 : b1)) * (even ? k0 : k1)
        }
    }

    @inline(never)
    static func linearize(
        _ s: UnsafePointer<Float>, _ n: Int, _ parity: Int, _ b0: Float, _ b1: Float, _ k0: Float, _ k1: Float,
        _ deltaH: [Float]?, _ lo: Int, _ out: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<n {
            let even = (i + parity) & 1 == 0
            let dh = deltaH.map { $0[lo + i] } ?? 0
            out[i] = (s[i] - (even ? b0 : b1) - dh) * (even ? k0 : k1)
        }
    }

    static func subtractDelta(
        _ deltaH: [Float], _ lo: Int, _ n: Int, _ parity: Int, _ k0: Float, _ k1: Float,
        _ out: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<n {
            let even = (i + parity) & 1 == 0
            out[i] -= deltaH[lo + i] * (even ? k0 : k1)
        }
    }

    /// Multiplies a row by the GainMap and FixVignetteRadial gains.
    private func applyShading(row y: Int, x0: Int, count w: Int, into d: UnsafeMutablePointer<Float>) {
        let fw = Double(width)
        let fh = Double(height)
        if let v = vignette {
            // r is normalised by the distance from the optical centre to the farthest corner.
            let cx = v.centerX * fw
            let cy = v.centerY * fh
            let mx = max(cx, fw - cx)
            let my = max(cy, fh - cy)
            let inv = 1 / (mx * mx + my * my)
            let k = v.coefficients + [Double](repeating: 0, count: max(0, 5 - v.coefficients.count))
            let dy = Double(y) + 0.5 - cy
            for i in 0..<w {
                let x = edge(x0 + i, width)
                let dx = Double(x) + 0.5 - cx
                let r2 = (dx * dx + dy * dy) * inv
                let g = 1 + r2 * (k[0] + r2 * (k[1] + r2 * (k[2] + r2 * (k[3] + r2 * k[4]))))
                d[i] *= Float(g)
            }
        }
        for map in gainMaps {
            let a = map.area
            let pitchV = max(1, Int(a.rowPitch))
            let pitchH = max(1, Int(a.columnPitch))
            guard y >= Int(a.top), y < Int(a.bottom), (y - Int(a.top)) % pitchV == 0, a.plane == 0 else { continue }
            let pv = Int(map.pointsV)
            let ph = Int(map.pointsH)
            // Position in map cells, edge-replicated outside.
            let fv = map.spacingV > 0 ? ((Double(y) / fh) - map.originV) / map.spacingV : 0
            let rv = min(max(fv, 0), Double(pv - 1))
            let r0 = Int(rv)
            let r1 = min(r0 + 1, pv - 1)
            let tv = Float(rv - Double(r0))
            for i in 0..<w {
                let x = edge(x0 + i, width)
                guard x >= Int(a.left), x < Int(a.right), (x - Int(a.left)) % pitchH == 0 else { continue }
                let fu = map.spacingH > 0 ? ((Double(x) / fw) - map.originH) / map.spacingH : 0
                let ru = min(max(fu, 0), Double(ph - 1))
                let c0 = Int(ru)
                let c1 = min(c0 + 1, ph - 1)
                let tu = Float(ru - Double(c0))
                let top = map.gain(row: r0, column: c0) * (1 - tu) + map.gain(row: r0, column: c1) * tu
                let bottom = map.gain(row: r1, column: c0) * (1 - tu) + map.gain(row: r1, column: c1) * tu
                d[i] *= top * (1 - tv) + bottom * tv
            }
        }
    }
}

extension GainMap {
    /// Whether the map can be applied: a grid of at least one point with a gain for every point (opcodes are
    /// optional processing, so a map that is not is skipped rather than guessed at).
    var isUsable: Bool {
        pointsV >= 1 && pointsH >= 1 && mapPlanes >= 1 && gains.count >= Int(pointsV) * Int(pointsH) * Int(mapPlanes)
            && spacingV.isFinite && spacingH.isFinite && originV.isFinite && originH.isFinite
    }
}
