import LuxCodecs
import LuxColor
import LuxPixels

/// Describes a captured Bayer mosaic as a DNG would: levels, CFA, colour matrices, neutral, noise, EXIF.
enum RAWPacking {
    /// The camera model written in DNG and EXIF files.
    static let make = "Lux"
    static let model = "Simulated Camera"

    /// A raw image for `pixels` (Bayer14 or Bayer16) described by `description`, with `preview` embedded, from the
    /// camera `cameraModel`.
    static func rawImage(
        _ pixels: PixelBuffer, description d: RAWDescription, exif: EXIF, preview: PixelBuffer?,
        cameraModel: String = model
    ) -> RawImage {
        let pattern = pixels.format.cfaPattern ?? d.cfaPattern
        var props = RawProperties(
            width: pixels.width, height: pixels.height, cfa: pattern, bitsPerSample: 16,
            blackLevel: BlackLevel(Double(d.blackLevel)), whiteLevel: Double(d.whiteLevel))
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
}
