public import LuxPixels

/// Raw sensor data with its description: what the RAW developer consumes and the capture pipeline
/// writes as DNG.
///
/// Properties of ``RawProperties`` are reachable directly (`raw.blackLevel`, `raw.color.asShotNeutral`).
///
/// ```swift
/// // Capture side: a simulated 14-bit RGGB frame to DNG.
/// var props = RawProperties(width: 4032, height: 3024, cfa: .rggb, blackLevel: BlackLevel(512), whiteLevel: 16383)
/// props.make = "Lux"; props.model = "Simulated"; props.uniqueCameraModel = "Lux Simulated"
/// props.color = ColorCalibration(colorMatrix1: xyzToCamera, calibrationIlluminant1: .d65, asShotNeutral: [0.5, 1, 0.7])
/// let raw = RawImage(pixels: bayerFrame, properties: props)
/// try ImageFile.write(ImageFile(raw: raw), to: url)
///
/// // Developer side:
/// let raw = try ImageFile.read(url: url).rawImage!
/// let active = raw.activePixels            // a zero-copy view of the ActiveArea, CFA = raw.cfaPattern
/// ```
@dynamicMemberLookup
public struct RawImage: Sendable {
    /// The stored samples: `.bayer16` (or `.bayer14`) for a Bayer CFA, `.gray16` for other CFAs or monochrome data,
    /// `.rgba16` for 16-bit Linear Raw, float formats for floating-point DNGs.
    ///
    /// Values are the stored codes (before linearisation and black subtraction).
    public var pixels: PixelBuffer
    /// The description.
    public var properties: RawProperties
    /// A rendered picture to embed as the DNG's preview when writing (8-bit, any size; sRGB assumed when it has no
    /// colour space).
    ///
    /// `nil`: the writer makes a small thumbnail from the raw data.
    public var renderedPreview: PixelBuffer?

    /// Creates a raw image.
    public init(pixels: PixelBuffer, properties: RawProperties, renderedPreview: PixelBuffer? = nil) {
        self.pixels = pixels
        self.properties = properties
        self.renderedPreview = renderedPreview
    }

    /// Reads and writes a property of the description.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<RawProperties, T>) -> T {
        get { properties[keyPath: keyPath] }
        set { properties[keyPath: keyPath] = newValue }
    }

    /// The active area as a zero-copy view (its Bayer format names the pattern at the area's origin).
    public var activePixels: PixelBuffer {
        let a = properties.activeArea
        return (try? pixels.view(x: a.left, y: a.top, width: a.width, height: a.height)) ?? pixels
    }
}
