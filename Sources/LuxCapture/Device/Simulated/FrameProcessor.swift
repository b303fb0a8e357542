public import LuxColor
public import LuxPixels

/// The device's image signal processor for stream frames and quick stills: bilinear demosaic, white balance and
/// camera → output colour in one matrix (the DNG path: camera → XYZ at the white the gains describe, Bradford
/// to D65, XYZ → sRGB or Display P3), clipped highlights faded to neutral, a highlight-compressing tone curve, the output transfer function, and the
/// requested pixel format.
public struct FrameProcessor: Sendable {
    /// The sensor whose frames are processed.
    public let sensor: SensorModel
    /// Its colour calibration.
    public let calibration: CameraCalibration
    /// Linear gain applied before the tone curve: the metered target (12.8 % of saturation) becomes mid-grey.
    public var exposureGain: Float = 1.6

    /// Creates a processor.
    public init(sensor: SensorModel, calibration: CameraCalibration) {
        self.sensor = sensor
        self.calibration = calibration
    }

    /// The 3×3 matrix from raw camera values (black subtracted, 0…1) to linear output RGB for `gains`.
    public func colorMatrix(gains: WhiteBalanceGains, colorSpace: CaptureColorSpace) -> Matrix3x3 {
        let toXYZ = calibration.cameraToXYZ(neutral: gains.neutral, destinationWhite: WhitePoint.d65)
        let toRGB = colorSpace.colorSpace.linearized().matrixToXYZ?.inverse ?? .identity
        return toRGB * toXYZ
    }

    /// Develops a Bayer frame into `pixelFormat` in `colorSpace`.
    public func process(
        raw: PixelBuffer, gains: WhiteBalanceGains, pixelFormat: PixelFormat, colorSpace: CaptureColorSpace,
        threads: Int = 1
    ) -> PixelBuffer {
        if FusedDevelopment.supports(pixelFormat) {
            var out = PixelBuffer(
                width: raw.width, height: raw.height, format: pixelFormat, colorSpace: colorSpace.colorSpace)
            process(raw: raw, gains: gains, colorSpace: colorSpace, into: &out, threads: threads)
            return out
        }
        return processThroughFloat(
            raw: raw, gains: gains, pixelFormat: pixelFormat, colorSpace: colorSpace, threads: threads)
    }

    /// Develops a Bayer frame into `destination` (same size), in its pixel format, tagged with `colorSpace`'s colour
    /// space — for example into a buffer from a pool.
    ///
    /// 8-bit formats (Y′CbCr, BGRA, RGBA) are developed in one fused pass over the rows.
    public func process(
        raw: PixelBuffer, gains: WhiteBalanceGains, colorSpace: CaptureColorSpace, into destination: inout PixelBuffer,
        threads: Int = 1
    ) {
        precondition(
            destination.width == raw.width && destination.height == raw.height,
            "the destination must have the frame's size")
        destination.colorSpace = colorSpace.colorSpace
        guard FusedDevelopment.supports(destination.format), let pattern = raw.format.cfaPattern else {
            let developed = processThroughFloat(
                raw: raw, gains: gains, pixelFormat: destination.format, colorSpace: colorSpace, threads: threads)
            for p in 0..<developed.planeCount {
                let rowBytes = developed.planeSize(p).width * developed.format.bytesPerPixel(plane: p)
                developed.withUnsafePlane(p) { src in
                    destination.withUnsafeMutablePlane(p) { dst in
                        for y in 0..<src.height { dst.row(y).copyMemory(from: src.row(y), byteCount: rowBytes) }
                    }
                }
            }
            return
        }
        destination.withUnsafeMutablePlane { _ in }  // unique storage before shared row writes
        let m = (Double(exposureGain) * colorMatrix(gains: gains, colorSpace: colorSpace)).entries.map(Float.init)
        let fused = FusedDevelopment(
            matrix: m, pattern: pattern, black: Float(sensor.blackLevel), white: Float(sensor.whiteLevel),
            transferFunction: colorSpace.colorSpace.transferFunction)
        fused.develop(raw, into: destination, threads: threads)
    }

    /// The general path: a linear float image, colour-matched and converted to `pixelFormat`.
    func processThroughFloat(
        raw: PixelBuffer, gains: WhiteBalanceGains, pixelFormat: PixelFormat, colorSpace: CaptureColorSpace,
        threads: Int
    ) -> PixelBuffer {
        let w = raw.width
        let h = raw.height
        let m = (Double(exposureGain) * colorMatrix(gains: gains, colorSpace: colorSpace)).entries.map(Float.init)
        let linear = colorSpace.colorSpace.linearized()
        let out = PixelBuffer(width: w, height: h, format: .rgbaFloat, colorSpace: linear)
        let dst = out.unsafeSharedMutablePlane(0)
        let quad = (raw.format.cfaPattern ?? .rggb).quadChannels.map(\.rawValue)
        let black = Float(sensor.blackLevel)
        let inv = 1 / Float(sensor.whiteLevel - sensor.blackLevel)
        raw.withUnsafePlane { src in
            Parallel.forEachBand(h, threads: threads) { rows in
                let columnPeak = UnsafeMutablePointer<Float>.allocate(capacity: w)
                defer { columnPeak.deallocate() }
                for y in rows {
                    func row(_ yy: Int) -> UnsafePointer<UInt16> {
                        let r = yy < 0 ? -yy : (yy >= h ? 2 * h - 2 - yy : yy)
                        return src.row(r, as: UInt16.self)
                    }
                    let up = row(y - 1)
                    let mid = row(y)
                    let dn = row(y + 1)
                    let o = dst.row(y, as: Float.self)
                    @inline(__always) func v(_ r: UnsafePointer<UInt16>, _ x: Int) -> Float {
                        let xx = x < 0 ? -x : (x >= w ? 2 * w - 2 - x : x)
                        return (Float(r[xx]) - black) * inv
                    }
                    // Each column's largest raw value over the five rows around (the desaturation's neighbourhood).
                    for x in 0..<w { columnPeak[x] = 0 }
                    for dy in -2...2 {
                        let r = row(y + dy)
                        for x in 0..<w { columnPeak[x] = max(columnPeak[x], v(r, x)) }
                    }
                    var nearClip = false
                    for x in 0..<w where columnPeak[x] > FusedDevelopment.desaturationStart { nearClip = true }
                    for x in 0..<w {
                        let c = quad[(y & 1) * 2 + (x & 1)]
                        var rgb = SIMD3<Float>.zero
                        let centre = v(mid, x)
                        let cross = 0.25 * (v(mid, x - 1) + v(mid, x + 1) + v(up, x) + v(dn, x))
                        let diag = 0.25 * (v(up, x - 1) + v(up, x + 1) + v(dn, x - 1) + v(dn, x + 1))
                        let horiz = 0.5 * (v(mid, x - 1) + v(mid, x + 1))
                        let vert = 0.5 * (v(up, x) + v(dn, x))
                        switch c {
                        case 0: rgb = SIMD3(centre, cross, diag)
                        case 2: rgb = SIMD3(diag, cross, centre)
                        default:
                            // Green site: is red on this row (left/right) or on the rows above/below?
                            let rowHasRed = quad[(y & 1) * 2 + ((x + 1) & 1)] == 0
                            rgb = rowHasRed ? SIMD3(horiz, centre, vert) : SIMD3(vert, centre, horiz)
                        }
                        var out = SIMD3<Float>.zero
                        for k in 0..<3 { out[k] = m[3 * k] * rgb.x + m[3 * k + 1] * rgb.y + m[3 * k + 2] * rgb.z }
                        if nearClip {
                            let peak = FusedDevelopment.neighbourhoodPeak(columnPeak, column: x, width: w)
                            (out.x, out.y, out.z) = FusedDevelopment.desaturated(out.x, out.y, out.z, rawPeak: peak)
                        }
                        for k in 0..<3 {
                            let lin = max(0, out[k])
                            // Highlight roll-off: linear below 0.6, then compresses to reach 1 at 3.
                            o[4 * x + k] = lin < 0.6 ? lin : min(1, 0.6 + 0.4 * (1 - 1 / (1 + (lin - 0.6) * 1.4)) * 1.4)
                        }
                        o[4 * x + 3] = 1
                    }
                }
            }
        }
        var encoded = out
        if let e = try? out.matchingColors(to: colorSpace.colorSpace, threads: threads) { encoded = e }
        return pixelFormat == .rgbaFloat ? encoded : encoded.converted(to: pixelFormat, threads: threads)
    }
}
