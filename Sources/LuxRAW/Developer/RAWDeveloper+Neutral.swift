import LuxColor
public import LuxPixels

extension RAWDeveloper {
    /// The mean camera RGB (no white balance, normalised sensor units) over a rectangle of ``outputImage``'s
    /// coordinates, read from the mosaic (each 2×2 quad contributes its red, mean green and blue).
    ///
    /// - Throws: ``RAWError/invalidParameter(name:value:allowed:)`` when the rectangle does not overlap the
    ///   image.
    public func meanCameraRGB(in rect: Rect) throws(RAWError) -> SIMD3<Double> {
        // Output rectangle → demosaiced coordinates (inverse orientation, then the crop offset).
        let crop = cropRectangle
        guard let inverse = orientationTransform(width: crop.width, height: crop.height).inverted else {
            return SIMD3(1, 1, 1)
        }
        var r = inverse.apply(to: rect).offsetBy(dx: crop.minX, dy: crop.minY)
        if adjustments.isDraftModeEnabled {
            r = Rect(minX: 2 * r.minX, minY: 2 * r.minY, maxX: 2 * r.maxX, maxY: 2 * r.maxY)
        }
        let area = Rect(width: rawImage.properties.activeArea.width, height: rawImage.properties.activeArea.height)
        r = r.intersection(area).integral.intersection(area)
        guard r.width >= 2, r.height >= 2 else {
            throw .invalidParameter(name: "neutral sample rectangle width", value: rect.width, allowed: 1...1e9)
        }
        let sensor = try SensorLinearization(rawImage, appliesLensShading: adjustments.isLensCorrectionEnabled)
        let x0 = Int(r.minX) & ~1
        let y0 = Int(r.minY) & ~1
        let w = (Int(r.maxX) - x0) & ~1
        let h = (Int(r.maxY) - y0) & ~1
        var sums = SIMD3<Double>(0, 0, 0)
        var counts = SIMD3<Double>(0, 0, 0)
        var row = [Float](repeating: 0, count: w)
        for y in y0..<(y0 + h) {
            row.withUnsafeMutableBufferPointer { b in
                sensor.read(x: x0, y: y, width: w, height: 1, gains: SIMD3(1, 1, 1), into: b.baseAddress!, rowStride: w)
            }
            for i in 0..<w {
                let c = sensor.color(x: x0 + i, y: y)
                sums[c] += Double(row[i])
                counts[c] += 1
            }
        }
        return sums / counts
    }

    /// Sets ``Adjustments/neutralTemperature`` and ``Adjustments/neutralTint`` so that the mean of `rect` (output
    /// coordinates, such as a grey card) renders neutral: the rectangle's camera RGB becomes the white-balance
    /// neutral.
    ///
    /// - Throws: ``RAWError/color(_:)`` when the sample is not a plausible white (a non-positive channel), and
    ///   the errors of ``meanCameraRGB(in:)``.
    public mutating func setNeutral(sampling rect: Rect) throws(RAWError) {
        let rgb = try meanCameraRGB(in: rect)
        guard rgb.min() > 0 else {
            throw .color(.outOfRange(name: "sampled camera neutral", value: rgb.min(), allowed: 1e-12...1))
        }
        let white: Chromaticity
        do { white = try calibration.chromaticity(forNeutral: rgb / rgb.max()) } catch { throw .color(error) }
        let tt = TemperatureAndTint(chromaticity: white)
        adjustments.neutralTemperature = tt.temperature
        adjustments.neutralTint = tt.tint
    }
}
