import Foundation
import LuxCodecs
import LuxFilters
import LuxIO
import LuxPixels
import LuxRender

/// The filter lab behind the studio: the built-in filters' descriptions for generated controls, and previews and
/// exports of a gallery image under a filter chain written as `lux filter --chain` takes it.
///
/// Previews filter a screen-sized copy of the image (read through the fast thumbnail path and kept for the last few
/// files), so a parameter in pixels (a blur radius) acts on that copy's pixels; the export filters the full image.
actor FilterLab {
    /// The most screen-sized copies kept at once.
    static let capacity = 4

    private var copies: [(key: String, pixels: PixelBuffer)] = []
    private let render = RenderContext(options: RenderOptions(cacheIntermediates: false))

    /// Every built-in filter that takes one image (the lab's input), with its parameters, for the browser's controls.
    static func catalog() -> [[String: Any]] {
        FilterRegistry.builtIn.descriptors.filter(\.takesImage).map { descriptor in
            let parameters: [[String: Any]] = descriptor.parameters.filter { $0.kind != .image }.map { p in
                var object: [String: Any] = [
                    "name": p.name, "kind": "\(p.kind)", "summary": p.summary, "unit": p.unit.rawValue,
                ]
                switch p.kind {
                case .number, .integer: object["type"] = "number"
                case .boolean: object["type"] = "boolean"
                case .point: object["type"] = "point"
                case .color: object["type"] = "color"
                case .vector(let n): object["type"] = "vector\(n)"
                case .string(let choices):
                    object["type"] = "choice"
                    object["choices"] = choices
                default: object["type"] = "text"
                }
                if let range = p.sliderRange ?? p.allowedRange {
                    object["range"] = [range.lowerBound, range.upperBound]
                }
                if let value = p.defaultValue { object["default"] = Self.json(value) }
                return object
            }
            return [
                "name": descriptor.name, "displayName": descriptor.displayName, "summary": descriptor.summary,
                "categories": descriptor.categories.map { "\($0)" }.sorted(), "parameters": parameters,
            ]
        }
    }

    /// A filter value as JSON: numbers, lists of numbers, booleans and strings.
    static func json(_ value: FilterValue) -> Any {
        switch value {
        case .number(let n): n
        case .vector(let v): v
        case .color(let c): [c.red, c.green, c.blue, c.alpha]
        case .boolean(let b): b
        case .string(let s): s
        case .transform, .image, .data: NSNull()
        }
    }

    /// A JPEG of `url` (fitting `side` × `side`) with the chain applied.
    func preview(of url: URL, chain text: String, side: Int) throws(StudioError) -> [UInt8] {
        do {
            let source = try copy(of: url, side: side)
            let chain = try FilterChain(parsing: text)
            let image = Image(buffer: source, colorSpace: source.colorSpace ?? .sRGB)
            let filtered = try chain.apply(to: image, registry: .builtIn) { path throws in
                throw FilterError.imageLoad(path: path, reason: "the filter lab takes no image files")
            }
            let pixels = try render.createBuffer(filtered.cropped(to: image.extent), format: .rgba8, colorSpace: .sRGB)
            return try JPEG.encode(pixels)
        } catch let error as StudioError {
            throw error
        } catch {
            throw .malformedMessage("\(error)")
        }
    }

    /// Filters the whole image into `folder` as `<name>_filtered.<ext>`; returns the new file.
    func export(_ url: URL, chain text: String, format: String, to folder: URL) throws(StudioError) -> URL {
        let ext: String
        switch format {
        case "jpeg", "jpg": ext = "jpg"
        case "heic": ext = "heic"
        case "tiff", "tif": ext = "tiff"
        case "png": ext = "png"
        default: throw .malformedMessage("export format must be jpeg, heic, tiff or png, not '\(format)'")
        }
        let base = url.deletingPathExtension().lastPathComponent + "_filtered"
        var target = folder.appendingPathComponent("\(base).\(ext)")
        var n = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = folder.appendingPathComponent("\(base)_\(n).\(ext)")
            n += 1
        }
        do {
            let chain = try FilterChain(parsing: text)
            let image = try Image(contentsOf: url)
            let filtered = try chain.apply(to: image, registry: .builtIn) { path throws in
                throw FilterError.imageLoad(path: path, reason: "the filter lab takes no image files")
            }
            try render.write(filtered.cropped(to: image.extent), to: target)
        } catch {
            throw .malformedMessage("\(url.lastPathComponent): \(error)")
        }
        return target
    }

    private func copy(of url: URL, side: Int) throws -> PixelBuffer {
        let key = "\(url.path)@\(side)"
        if let entry = copies.first(where: { $0.key == key }) { return entry.pixels }
        let pixels = try Thumbnail(contentsOf: url, fitting: (side, side)).pixels
        copies.append((key, pixels))
        if copies.count > Self.capacity { copies.removeFirst() }
        return pixels
    }
}
