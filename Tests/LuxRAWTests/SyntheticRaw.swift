import LuxCodecs
import LuxColor
import LuxPixels
import LuxRAW

/// Synthetic raw images built from known XYZ values and a known camera matrix (the oracle is the input).
enum SyntheticRaw {
    /// Brooks et al.'s XYZ → camera matrix (ALGORITHMS.md §4.4), used as a colorimetric camera.
    static let cameraMatrix = Matrix3x3([1.0234, -0.2969, -0.2266, -0.5625, 1.6328, -0.0469, -0.0703, 0.2188, 0.6406])
    static let patchSize = 40
    static let black = 512.0
    static let white = 16383.0

    /// The 24-patch chart (6 × 4, patch 1 top left) lit by `illuminant`, as a 14-bit RGGB mosaic whose linear
    /// values are `scale · K · XYZ`; AsShotNeutral is the camera response to `asShotWhite`.
    static func colorChecker(
        illuminant: Chromaticity, asShotWhite: Chromaticity, scale: Double = 0.5, pattern: CFAPattern = .rggb,
        camera: Matrix3x3 = cameraMatrix
    ) -> RawImage {
        let k = camera
        let w = 6 * patchSize
        let h = 4 * patchSize
        let adapt = ChromaticAdaptation.bradford(from: WhitePoint.iccD50XYZ, to: illuminant.xyz())
        let camera = ColorChecker.classic24.map { patch in scale * (k * (adapt * patch.xyz)) }
        var pixels = PixelBuffer(width: w, height: h, format: .bayer14(pattern))
        pixels.withUnsafeMutablePlane { plane in
            for y in 0..<h {
                let row = plane.row(y, as: UInt16.self)
                for x in 0..<w {
                    let rgb = camera[(y / patchSize) * 6 + x / patchSize]
                    let c = pattern.channel(x: x, y: y).rawValue
                    let v = black + max(rgb[c], 0) * (white - black)
                    row[x] = UInt16(min(v.rounded(), white))
                }
            }
        }
        var props = RawProperties(
            width: w, height: h, cfa: pattern, bitsPerSample: 14, blackLevel: BlackLevel(black), whiteLevel: white)
        let neutral = k * asShotWhite.xyz()
        props.color = ColorCalibration(
            colorMatrix1: k, calibrationIlluminant1: .d65, asShotNeutral: (0..<3).map { neutral[$0] / neutral.max() })
        props.make = "Lux"
        props.model = "Synthetic"
        props.uniqueCameraModel = "Lux Synthetic"
        return RawImage(pixels: pixels, properties: props)
    }

    /// A `w × h` raw of the synthetic camera whose linear camera RGB at photosite `(x, y)` is `value(x, y)`
    /// (0…1 of the white level, clipped there), shot under D65 (AsShotNeutral = the camera's D65 response).
    static func field(
        width w: Int, height h: Int, pattern: CFAPattern = .rggb, value: (Int, Int) -> SIMD3<Double>
    ) -> RawImage {
        var pixels = PixelBuffer(width: w, height: h, format: .bayer14(pattern))
        pixels.withUnsafeMutablePlane { plane in
            for y in 0..<h {
                let row = plane.row(y, as: UInt16.self)
                for x in 0..<w {
                    let c = pattern.channel(x: x, y: y).rawValue
                    let v = black + min(max(value(x, y)[c], 0), 1) * (white - black)
                    row[x] = UInt16(v.rounded())
                }
            }
        }
        var props = RawProperties(
            width: w, height: h, cfa: pattern, bitsPerSample: 14, blackLevel: BlackLevel(black), whiteLevel: white)
        props.color = ColorCalibration(
            colorMatrix1: cameraMatrix, calibrationIlluminant1: .d65, asShotNeutral: d65Neutral.map { $0 })
        props.make = "Lux"
        props.model = "Synthetic"
        props.uniqueCameraModel = "Lux Synthetic"
        return RawImage(pixels: pixels, properties: props)
    }

    /// The synthetic camera's response to D65 white, largest component 1.
    static var d65Neutral: [Double] {
        let n = cameraMatrix * WhitePoint.d65.xyz()
        return (0..<3).map { n[$0] / n.max() }
    }

    /// The centre rectangle of patch `number` (1…24), `inset` pixels inside its edges.
    static func patchRect(_ number: Int, inset: Int = 12) -> Rect {
        let i = number - 1
        return Rect(
            x: (i % 6) * patchSize + inset, y: (i / 6) * patchSize + inset, width: patchSize - 2 * inset,
            height: patchSize - 2 * inset)
    }

    /// Mean RGB of `rect` in an `.rgbaFloat` buffer.
    static func mean(_ buffer: PixelBuffer, _ rect: Rect) -> SIMD3<Double> {
        let v = buffer.components(as: Float.self)
        var s = SIMD3<Double>(0, 0, 0)
        var n = 0.0
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) {
                let o = 4 * (y * buffer.width + x)
                s += SIMD3(Double(v[o]), Double(v[o + 1]), Double(v[o + 2]))
                n += 1
            }
        }
        return s / n
    }

    /// Lab (D50) of a linear-sRGB (D65) colour, through XYZ and Bradford.
    static func lab(linearSRGB rgb: SIMD3<Double>) -> SIMD3<Double> {
        let xyz = ColorSpace.linearSRGB.matrixToXYZ! * rgb
        let d50 = ChromaticAdaptation.bradford(from: WhitePoint.d65.xyz(), to: WhitePoint.iccD50XYZ) * xyz
        return Lab.fromXYZ(d50, white: WhitePoint.d50)
    }
}

extension RAWDeveloper {
    /// A copy with noise reduction and sharpening off, and the tone curve too unless `toneCurve` is set: the
    /// pipeline's colour and exposure alone, for measurements against known scene values.
    func plain(toneCurve: Bool = false) -> RAWDeveloper {
        var d = self
        d.luminanceNoiseReductionAmount = 0
        d.colorNoiseReductionAmount = 0
        d.sharpnessAmount = 0
        if !toneCurve { d.boostAmount = 0 }
        return d
    }
}
