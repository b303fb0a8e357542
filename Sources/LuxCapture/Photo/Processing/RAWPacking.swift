import LuxCodecs
import LuxColor
import LuxPixels

/// Describes a captured Bayer mosaic as a DNG would: levels, CFA, colour matrices, neutral, noise, EXIF.
enum RAWPacking {
    /// The camera model written in DNG and EXIF files.
    static let make = "Lux"
    static let model = "Simulated Camera"
    /// Photosites the simulated sensor's DNGs record on each side of the picture (``RAWDescription/cropMargin``).
    static let simulatedCropMargin = 8

    /// A raw image for `picture` (Bayer14 or Bayer16) described by `description`, with `preview` embedded, from the
    /// camera `cameraModel`.
    ///
    /// With a `margin`, the mosaic grows by that many photosites on every side (the edge photosites mirrored, which
    /// keeps the CFA phase for an even margin) and the default crop leaves them out, so the picture keeps its size.
    static func rawImage(
        _ picture: PixelBuffer, description d: RAWDescription, exif: EXIF, preview: PixelBuffer?,
        cameraModel: String = model, margin: Int = 0
    ) -> RawImage {
        let m = min(margin, picture.width - 1, picture.height - 1) & ~1
        let pixels = m > 0 ? mirrored(picture, margin: m) : picture
        let pattern = pixels.format.cfaPattern ?? d.cfaPattern
        var props = RawProperties(
            width: pixels.width, height: pixels.height, cfa: pattern, bitsPerSample: 16,
            blackLevel: BlackLevel(Double(d.blackLevel)), whiteLevel: Double(d.whiteLevel))
        if m > 0 {
            props.defaultCrop = DefaultCrop(
                x: Double(m), y: Double(m), width: Double(picture.width), height: Double(picture.height))
        }
        let c = d.calibration
        props.color = ColorCalibration(
            colorMatrix1: c.colorMatrix1,
            calibrationIlluminant1: LightSource(rawValue: UInt16(c.calibrationIlluminant1Code)),
            colorMatrix2: c.colorMatrix2,
            calibrationIlluminant2: LightSource(rawValue: UInt16(c.calibrationIlluminant2Code)),
            forwardMatrix1: c.forwardMatrix1, forwardMatrix2: c.forwardMatrix2,
            asShotNeutral: [d.asShotNeutral.x, d.asShotNeutral.y, d.asShotNeutral.z])
        props.noiseProfile = NoiseProfile(planes: [.init(scale: d.noiseProfile.x, offset: d.noiseProfile.y)])
        props.uniqueCameraModel = "\(make) \(cameraModel)"
        props.localizedCameraModel = cameraModel
        props.dngVersion = [1, 4, 0, 0]
        props.dngBackwardVersion = [1, 3, 0, 0]
        props.baselineExposure = 0
        props.exif = exif
        var image = RawImage(pixels: pixels, properties: props)
        image.renderedPreview = preview.map { $0.format.isYCbCr ? $0.converted(to: .rgba8) : $0 }
        return image
    }

    /// `pixels` with `margin` photosites more on every side, each the photosite mirrored about the nearest edge
    /// (column −k reads column k), so every photosite keeps its colour when `margin` is even.
    static func mirrored(_ pixels: PixelBuffer, margin m: Int) -> PixelBuffer {
        let w = pixels.width
        let h = pixels.height
        let source = pixels.components(as: UInt16.self)
        let outWidth = w + 2 * m
        var out = [UInt16](repeating: 0, count: outWidth * (h + 2 * m))
        func mirror(_ i: Int, _ n: Int) -> Int { i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i }
        let columns = (0..<outWidth).map { mirror($0 - m, w) }
        for y in 0..<(h + 2 * m) {
            let from = mirror(y - m, h) * w
            let to = y * outWidth
            for x in 0..<outWidth { out[to + x] = source[from + columns[x]] }
        }
        return PixelBuffer(width: outWidth, height: h + 2 * m, format: pixels.format, components: out)
    }
}
