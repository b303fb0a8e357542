import Foundation
import Lux

/// What the contact sheet shows of an image file: its size and colour space, a small JPEG thumbnail Lux writes,
/// and its histograms (computed from the full image, in its own colour space).
struct DemoPreview {
    /// The thumbnail's name, relative to the output folder.
    var thumbnail: String
    var thumbnailWidth: Int
    var thumbnailHeight: Int
    /// The full image's size.
    var width: Int
    var height: Int
    /// The colour space the histogram counts and the thumbnail is encoded in.
    var colorSpace: ColorSpace
    var histogram: ImageHistogram

    /// The preview of the JPEG `file` in `folder`: the file decoded once, histogrammed, and scaled down into
    /// `thumbs/`.
    static func ofImage(_ file: String, in folder: URL, side: Int, context: RenderContext) throws -> DemoPreview {
        let decoded = try ImageFile.read(url: folder.appendingPathComponent(file))
        let space = decoded.pixels.colorSpace ?? .sRGB
        return try make(
            Image(buffer: decoded.pixels), colorSpace: space, for: file, in: folder, side: side, context: context)
    }

    /// The preview of the DNG `file`: a quick (draft, half-size) development with the file's own settings.
    static func ofRAW(_ file: String, in folder: URL, side: Int, context: RenderContext) throws -> DemoPreview {
        var developer = try RAWDeveloper(url: folder.appendingPathComponent(file))
        developer.scaleFactor = 0.5
        var preview = try make(
            developer.outputImage, colorSpace: .displayP3, for: file, in: folder, side: side, context: context)
        preview.width = Int(developer.nativeSize.width)
        preview.height = Int(developer.nativeSize.height)
        return preview
    }

    /// Histograms `image` (in `colorSpace`) and writes its thumbnail, `side` pixels on the long side.
    static func make(
        _ image: Image, colorSpace: ColorSpace, for file: String, in folder: URL, side: Int, context: RenderContext
    ) throws -> DemoPreview {
        let extent = image.extent
        let histogram = try ImageHistogram(of: image, colorSpace: colorSpace, binCount: 64)
        let scale = min(1, Double(side) / max(extent.width, extent.height))
        let small = image.lanczosScaleTransform(scale: scale)
        let name = "thumbs/" + file.replacingOccurrences(of: ".", with: "-") + ".jpg"
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("thumbs"), withIntermediateDirectories: true)
        try context.write(
            small, to: folder.appendingPathComponent(name), format: .jpeg, colorSpace: colorSpace,
            options: EncodingOptions(quality: 0.85))
        return DemoPreview(
            thumbnail: name, thumbnailWidth: Int(small.extent.width), thumbnailHeight: Int(small.extent.height),
            width: Int(extent.width), height: Int(extent.height), colorSpace: colorSpace, histogram: histogram)
    }
}
