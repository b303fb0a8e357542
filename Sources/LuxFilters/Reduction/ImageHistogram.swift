public import LuxColor
public import LuxPixels
public import LuxRender

/// The red, green, blue and luminance histograms of an image as a photo editor shows them: of the values encoded
/// in a display colour space (sRGB by default), so a mid-grey lands in the middle and clipped highlights pile up
/// in the last bin.
///
/// Each histogram holds, per bin, the fraction of the pixels whose value falls in it (the fractions of a channel
/// sum to 1). Bin `k` of `n` covers encoded values `k/n ..< (k+1)/n`; values outside 0…1 are counted in the
/// first or last bin. Luminance is the colour space's luma: the encoded red, green and blue weighted by the
/// space's relative luminance of each primary (0.2126, 0.7152, 0.0722 for sRGB).
///
/// ```swift
/// let photo = try Image(contentsOf: URL(fileURLWithPath: "IMG_0001.jpg"))
/// let histogram = try ImageHistogram(of: photo, colorSpace: .displayP3, binCount: 64)
/// print(histogram.luminance.firstIndex(of: histogram.luminance.max()!)!)   // the most common brightness bin
/// print(histogram.clippedFraction)                                         // how much is blown out
/// ```
///
/// The counts are exact (integer tallies per band of rows, combined in order), so the result does not depend on
/// the number of threads. Built on ``Filters/AreaHistogram``.
public struct ImageHistogram: Hashable, Sendable {
    /// The fraction of pixels in each bin of the encoded red values.
    public var red: [Double]
    /// The fraction of pixels in each bin of the encoded green values.
    public var green: [Double]
    /// The fraction of pixels in each bin of the encoded blue values.
    public var blue: [Double]
    /// The fraction of pixels in each bin of the luma.
    public var luminance: [Double]
    /// The colour space whose encoded values were counted.
    public var colorSpace: ColorSpace

    /// The number of bins of each histogram.
    public var binCount: Int { luminance.count }

    /// The fraction of pixels whose luma is in the last bin (blown-out highlights).
    public var clippedFraction: Double { luminance.last ?? 0 }

    /// Creates a histogram from known fractions (nothing is computed).
    public init(red: [Double], green: [Double], blue: [Double], luminance: [Double], colorSpace: ColorSpace) {
        self.red = red
        self.green = green
        self.blue = blue
        self.luminance = luminance
        self.colorSpace = colorSpace
    }

    /// Counts the pixels of `extent` of `image` (default: its whole, finite extent).
    ///
    /// - Parameters:
    ///   - colorSpace: The RGB display space whose encoded values are counted (default sRGB).
    ///   - binCount: Bins per histogram, 1…2048 (default 64).
    ///   - context: The context that renders the counts (its working format sets the precision of the values
    ///     counted; the default context renders in 32-bit float). An opaque 8-bit RGBA buffer already in
    ///     `colorSpace` (a decoded JPEG, for instance) is not rendered: its stored codes are counted directly, and
    ///     exactly. The two ways compute values in different precisions, so a value (a luma above all) within
    ///     rounding of a bin edge can land in the bin on either side of it.
    /// - Throws: ``RenderError/invalidOptions(_:)`` for a bin count out of range,
    ///   ``RenderError/invalidBounds(_:reason:)`` for an empty or infinite region, ``RenderError/colorSpace(_:)``
    ///   for a colour space that is not RGB; the render's errors otherwise.
    public init(
        of image: Image, extent: Rect = .null, colorSpace: ColorSpace = .sRGB, binCount: Int = 64,
        context: RenderContext = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))
    ) throws(RenderError) {
        guard (1...2048).contains(binCount) else {
            throw .invalidOptions("a histogram has 1…2048 bins, not \(binCount)")
        }
        let area = extent.isEmpty ? image.extent : extent
        guard !area.isInfinite, !area.isEmpty else {
            throw .invalidBounds(area, reason: "a histogram needs a finite, non-empty region")
        }
        guard case .rgb = colorSpace.model, let toXYZ = colorSpace.matrixToXYZ else {
            throw .colorSpace("a histogram counts the values of an RGB space, not \(colorSpace)")
        }
        let weights = toXYZ.row(1)
        if let direct = Self.counted(
            bytesOf: image, area: area, colorSpace: colorSpace, binCount: binCount,
            lumaWeights: SIMD3(weights.x, weights.y, weights.z))
        {
            self = direct
            return
        }
        let encoded = image.matchedFromWorkingSpace(to: colorSpace)
        let luma = SIMD4(weights.x, weights.y, weights.z, 0)
        let gray = encoded.colorMatrix(red: luma, green: luma, blue: luma)
        let rgb = try Self.counts(encoded, area, binCount, context)
        let y = try Self.counts(gray, area, binCount, context)
        self.init(red: rgb[0], green: rgb[1], blue: rgb[2], luminance: y[0], colorSpace: colorSpace)
    }

    /// The three channels' fractions: ``Filters/AreaHistogram`` scaled to whole pixel counts (exact in the 32-bit
    /// float render below 2²⁴ pixels per bin), rendered without colour matching and divided in double precision.
    static func counts(_ image: Image, _ area: Rect, _ bins: Int, _ context: RenderContext) throws(RenderError)
        -> [[Double]]
    {
        let pixels = area.integral.width * area.integral.height
        let row = try context.createBuffer(
            image.areaHistogram(extent: area, scale: pixels, count: bins), from: Rect(width: bins, height: 1),
            format: .rgbaFloat, colorSpace: nil)
        let values = row.components(as: Float.self)
        return (0..<3).map { c in (0..<bins).map { Double(values[4 * $0 + c]).rounded() / pixels } }
    }
}
