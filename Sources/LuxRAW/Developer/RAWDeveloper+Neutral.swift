public import LuxColor
public import LuxPixels

extension RAWDeveloper {
    /// The rectangle of active-area photosites (full resolution) that a rectangle of ``outputImage`` shows.
    func activeAreaRect(forOutput rect: Rect) -> Rect {
        let crop = cropRectangle
        let size = scaledSize
        guard let inverse = orientationTransform(width: size.width, height: size.height).inverted else { return rect }
        var r = inverse.apply(to: rect)
        // Output pixels → the binned crop's pixels → photosites.
        let sx = crop.width / size.width
        let sy = crop.height / size.height
        r = Rect(minX: r.minX * sx, minY: r.minY * sy, maxX: r.maxX * sx, maxY: r.maxY * sy)
        r = r.offsetBy(dx: crop.minX, dy: crop.minY)
        let b = Double(binning)
        return Rect(minX: b * r.minX, minY: b * r.minY, maxX: b * r.maxX, maxY: b * r.maxY)
    }

    /// The mean camera RGB (no white balance, normalised sensor units) over a rectangle of ``outputImage``'s
    /// coordinates, read from the raw data (each photosite contributes to its colour's mean; Linear Raw pixels to
    /// all three).
    ///
    /// - Throws: ``RAWError/invalidParameter(name:value:allowed:)`` when the rectangle does not overlap the
    ///   image.
    public func meanCameraRGB(in rect: Rect) throws(RAWError) -> SIMD3<Double> {
        let area = Rect(width: rawImage.properties.activeArea.width, height: rawImage.properties.activeArea.height)
        let r = activeAreaRect(forOutput: rect).intersection(area).integral.intersection(area)
        guard r.width >= 2, r.height >= 2 else {
            throw .invalidParameter(name: "neutral sample rectangle width", value: rect.width, allowed: 1...1e9)
        }
        let x0 = Int(r.minX) & ~1
        let y0 = Int(r.minY) & ~1
        let w = (Int(r.maxX) - x0) & ~1
        let h = (Int(r.maxY) - y0) & ~1
        var sums = SIMD3<Double>(0, 0, 0)
        var counts = SIMD3<Double>(0, 0, 0)
        var row = [Float](repeating: 0, count: 3 * w)
        if rawImage.properties.photometric == .linearRaw {
            let sensor = try LinearRawSensor(rawImage)
            for y in y0..<(y0 + h) {
                row.withUnsafeMutableBufferPointer { b in
                    let p = b.baseAddress!
                    sensor.read(
                        x: x0, y: y, width: w, height: 1, gains: SIMD3(1, 1, 1), into: (p, p + w, p + 2 * w),
                        rowStride: w)
                }
                for i in 0..<w {
                    sums += SIMD3(Double(row[i]), Double(row[w + i]), Double(row[2 * w + i]))
                    counts += 1
                }
            }
            return sums / counts
        }
        let sensor = try SensorLinearization(rawImage, appliesLensShading: adjustments.isLensCorrectionEnabled)
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
        neutralChromaticity = white
    }

    /// Sets the white balance from the neighbourhood of one point of ``outputImage`` (Core Image's
    /// `neutralLocation`): the mean of the 5×5 output pixels around it (at least 2×2 photosites) renders neutral.
    ///
    /// - Throws: the errors of ``setNeutral(sampling:)``.
    public mutating func setNeutral(at point: Point) throws(RAWError) {
        try setNeutral(sampling: Rect(x: point.x - 2.5, y: point.y - 2.5, width: 5, height: 5))
    }

    /// The chromaticity (CIE 1931 x, y) of the white the output renders neutral (Core Image's
    /// `neutralChromaticity`): setting it sets ``Adjustments/neutralTemperature`` and ``Adjustments/neutralTint``.
    public var neutralChromaticity: Chromaticity {
        get {
            TemperatureAndTint(temperature: adjustments.neutralTemperature, tint: adjustments.neutralTint).chromaticity
        }
        set {
            let tt = TemperatureAndTint(chromaticity: newValue)
            adjustments.neutralTemperature = tt.temperature
            adjustments.neutralTint = tt.tint
        }
    }
}
