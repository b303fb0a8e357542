import Foundation
import LuxCodecs
import LuxIO
import LuxPixels
import LuxRAW
import LuxRender

/// The RAW developer behind the studio's sliders: screen-sized previews of a RAW file under adjustments, and the
/// full-size export.
///
/// The decoded files are kept (the last few opened), each with its preview draft: a slider change re-runs only the
/// stages after the ones it leaves unchanged (``RAWDeveloper/previewImage(draft:context:)``). A preview asks the
/// developer for the screen size through ``RAWDeveloper/Adjustments/scaleFactor``: the mosaic is binned before
/// anything else runs, and the draft holds the early stages at the preview's size, which is what keeps a slider
/// interactive.
actor RawDevelopment {
    /// The most decoded files kept at once.
    static let capacity = 2

    private var developers: [(url: URL, developer: RAWDeveloper, draft: RAWDeveloper.PreviewDraft)] = []
    private let render = RenderContext(options: RenderOptions(cacheIntermediates: false))

    /// The developer of `url`, decoded on first use, and its preview draft.
    private func entry(for url: URL) throws(StudioError) -> (developer: RAWDeveloper, draft: RAWDeveloper.PreviewDraft)
    {
        if let index = developers.firstIndex(where: { $0.url == url }) {
            let entry = developers.remove(at: index)
            developers.append(entry)
            return (entry.developer, entry.draft)
        }
        let developer: RAWDeveloper
        do { developer = try RAWDeveloper(url: url) } catch {
            throw .malformedMessage("\(url.lastPathComponent): \(error)")
        }
        let draft = RAWDeveloper.PreviewDraft()
        developers.append((url, developer, draft))
        if developers.count > Self.capacity { developers.removeFirst() }
        return (developer, draft)
    }

    /// The developer of `url`, decoded on first use.
    private func developer(for url: URL) throws(StudioError) -> RAWDeveloper {
        try entry(for: url).developer
    }

    /// The file's as-shot adjustments (white balance from the file, everything else at its default), as JSON.
    func defaults(for url: URL) throws(StudioError) -> String {
        let developer = try developer(for: url)
        let white = developer.asShotWhite
        return StudioCamera.json([
            "neutralTemperature": white.temperature, "neutralTint": white.tint,
            "width": developer.nativeSize.width, "height": developer.nativeSize.height,
        ])
    }

    /// A JPEG of the file developed with `adjustments`, fitting `side` × `side`.
    func preview(of url: URL, adjustments: RAWDeveloper.Adjustments, side: Int) throws(StudioError) -> [UInt8] {
        let (decoded, draft) = try entry(for: url)
        var developer = decoded
        var adjustments = adjustments
        // The size the development gives at scale 1: the default crop's when the file has one (a camera's DNG keeps
        // a margin of photosites around the picture), not the whole active area.
        adjustments.scaleFactor = 1
        developer.adjustments = adjustments
        do {
            let full = developer.outputSize
            adjustments.scaleFactor = min(1, max(0.01, Double(side) / max(full.width, full.height)))
            developer.adjustments = adjustments
            try developer.validate()
            let image = try developer.previewImage(draft: draft, context: render)
            let pixels = try render.createBuffer(image, format: .rgba8, colorSpace: .sRGB)
            var options = EncodingOptions.default
            options.quality = 0.85
            return try JPEG.encode(pixels, options: options)
        } catch {
            throw .malformedMessage("\(url.lastPathComponent): \(error)")
        }
    }

    /// Develops the file at full size into `folder` as `<name>_developed.<ext>` (JPEG, HEIC or TIFF).
    ///
    /// Returns the new file's URL; the file appears only when complete.
    func export(_ url: URL, adjustments: RAWDeveloper.Adjustments, format: String, to folder: URL)
        throws(StudioError) -> URL
    {
        let ext: String
        switch format {
        case "jpeg", "jpg": ext = "jpg"
        case "heic": ext = "heic"
        case "tiff", "tif": ext = "tiff"
        default: throw .malformedMessage("export format must be jpeg, heic or tiff, not '\(format)'")
        }
        var developer = try developer(for: url)
        var adjustments = adjustments
        adjustments.scaleFactor = 1
        adjustments.isDraftModeEnabled = false
        developer.adjustments = adjustments
        let base = url.deletingPathExtension().lastPathComponent + "_developed"
        var target = folder.appendingPathComponent("\(base).\(ext)")
        var n = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = folder.appendingPathComponent("\(base)_\(n).\(ext)")
            n += 1
        }
        do {
            try developer.validate()
            try render.write(developer.outputImage, to: target)
        } catch {
            throw .malformedMessage("\(url.lastPathComponent): \(error)")
        }
        return target
    }
}
