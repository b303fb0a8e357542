public import Foundation
import LuxCodecs
import LuxColor
import LuxFilters
import LuxIO
import LuxPixels
import LuxRAW
import LuxRender
public import LuxScene

extension Scene {
    /// A scene made from a photograph file: its colours as reflectances, its depth map (when it has one) as
    /// distances, and its brightest parts as lights several stops above the room.
    ///
    /// Any image Lux reads works: JPEG, PNG, TIFF, HEIC, WebP, or a camera raw or DNG, developed with
    /// ``RAWDeveloper``'s defaults. Colours are linearised from the file's colour space (its ICC profile or `nclx`
    /// description; sRGB when it names none). The depth comes from `depth` when given, otherwise from the file's own
    /// depth or disparity map (an iPhone portrait HEIC carries one): the scene is then sliced into layers by
    /// distance, so each part is defocused by the lens as its distance asks. Without a depth map the photograph is a
    /// flat print `distance` metres away.
    ///
    /// A photograph larger than `maximumDimension` on its longest side is reduced on load (a JPEG in libjpeg's DCT
    /// domain through ``Thumbnail``, anything else with a Lanczos-3 step), so a 12-megapixel photo costs a 2048-pixel
    /// texture rather than a quarter of a gigabyte; its depth map covers the same frame and stays aligned.
    ///
    /// A depth file is read as follows: a HEIC's depth auxiliary image through its depth representation
    /// (disparity in 1/m, as iPhones store it, or distance); a floating-point image (TIFF) as distances in metres;
    /// any other image as normalised disparity, the value `v` (0…1) at `0.5 / v` metres (white 0.5 m, mid-grey
    /// 1 m).
    ///
    /// ```swift
    /// let portrait = try Scene.photograph(contentsOf: URL(fileURLWithPath: "IMG_0042.HEIC"))
    /// let camera = SimulatedCamera(scene: portrait)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The photograph.
    ///   - depth: A depth or disparity map for it (`nil`: the photograph's own, if any).
    ///   - distance: The distance in metres of a photograph without depth.
    ///   - light: The light on the scene (a room at 300 lx by default).
    ///   - highlightStops: How far above the room its brightest parts shine, in stops
    ///     (``SceneImage/init(buffer:depthMap:highlightStops:)``).
    ///   - maximumDimension: The longest side in pixels the photograph is reduced to when it is larger.
    /// - Throws: ``SceneError/unreadableFile(path:reason:)`` naming the file that cannot be read or used.
    public static func photograph(
        contentsOf url: URL, depth: URL? = nil, distance: Double = 2, light: Light = Light(.d65, lux: 300),
        highlightStops: Double = 4, maximumDimension: Int = 2048
    ) throws(SceneError) -> Scene {
        let pixels = try PhotographFile.colors(url, fitting: max(1, maximumDimension))
        let depthMap: PixelBuffer?
        if let depth {
            depthMap = try PhotographFile.distances(depth, main: false)
        } else {
            depthMap = try PhotographFile.distances(url, main: true)
        }
        let image: SceneImage
        do {
            image = try SceneImage(buffer: pixels, depthMap: depthMap, highlightStops: highlightStops)
        } catch {
            throw .unreadableFile(path: url.path, reason: "\(error)")
        }
        var scene = Scene.image(image, distance: distance, light: light)
        scene.name = "photo:" + url.lastPathComponent
        return scene
    }
}

/// Reading a photograph's colours and depth for ``Scene/photograph(contentsOf:depth:distance:light:highlightStops:maximumDimension:)``.
enum PhotographFile {
    /// The photograph's pixels, upright, with their colour space (a raw is developed), reduced to fit `side` × `side`.
    static func colors(_ url: URL, fitting side: Int) throws(SceneError) -> PixelBuffer {
        let box = (width: side, height: side)
        do {
            let info = try ImageFile.info(url: url)
            let fits = max(info.width, info.height) <= side
            if info.raw == nil && info.format != .dng && info.format != .cameraRaw {
                // libjpeg reduces a JPEG by 2, 4 or 8 while decoding: the cheapest way down.
                if info.format == .jpeg && !fits { return try Thumbnail(contentsOf: url, fitting: box).pixels }
                let file = try ImageFile.read(url: url, options: DecodingOptions(appliesOrientation: true))
                let pixels = file.pixels
                if !pixels.format.isBayer {
                    if fits { return pixels }
                    return try RenderContext().createBuffer(
                        Image(buffer: pixels, colorSpace: pixels.colorSpace ?? .sRGB).resizedToFit(box),
                        format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
                }
            }
        } catch {
            throw .unreadableFile(path: url.path, reason: "\(error)")
        }
        do {
            let developer = try RAWDeveloper(url: url)
            return try RenderContext().createBuffer(
                try developer.outputImage.resizedToFit(box), format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        } catch {
            throw .unreadableFile(path: url.path, reason: "developing the raw failed: \(error)")
        }
    }

    /// Distances in metres (a one-channel float buffer) from a depth file, or from a photograph's own depth map
    /// (`main`: `nil` when it has none).
    static func distances(_ url: URL, main: Bool) throws(SceneError) -> PixelBuffer? {
        let representation: DepthRepresentation?
        let file: ImageFile
        do {
            let heif = try ImageFile.info(url: url).heif?.images.first
            let hasDepth = heif?.auxiliaryImages.contains { $0.kind == .depth } ?? false
            if main && !hasDepth { return nil }
            representation = hasDepth ? heif?.depth : nil
            file = try ImageFile.read(
                url: url, options: DecodingOptions(appliesOrientation: true, component: hasDepth ? .depth : .main))
        } catch {
            throw .unreadableFile(path: url.path, reason: "\(error)")
        }
        let source = file.pixels
        if source.format.isBayer { throw .unreadableFile(path: url.path, reason: "a raw mosaic is not a depth map") }
        let isFloat = source.format.isFloatingPoint
        let out = PixelBuffer(width: source.width, height: source.height, format: .grayFloat)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: 4 * source.width)
        defer { row.deallocate() }
        let plane = out.unsafeSharedMutablePlane(0)
        for y in 0..<source.height {
            source.readRGBAFloat(row: y, into: row)
            let o = plane.row(y, as: Float.self)
            for x in 0..<source.width {
                o[x] = Float(distance(Double(row[4 * x]), representation: representation, isFloat: isFloat))
            }
        }
        return out
    }

    /// The distance in metres a depth sample `v` (normalised to 0…1 for integer images) stands for.
    static func distance(_ v: Double, representation: DepthRepresentation?, isFloat: Bool) -> Double {
        let far = 1000.0
        if let r = representation {
            switch r.kind {
            case .uniformDepth:
                let near = r.zNear ?? 0
                return near + v * ((r.zFar ?? far) - near)
            case .uniformDisparity, .nonUniformDisparity, .uniformInverseDepth:
                let lo = r.minimumDisparity ?? (r.zFar.map { 1 / $0 } ?? 0)
                let hi = r.maximumDisparity ?? (r.zNear.map { 1 / $0 } ?? 2)
                let disparity = lo + v * (hi - lo)
                return disparity > 1 / far ? 1 / disparity : far
            }
        }
        if isFloat { return v > 0 && v.isFinite ? v : far }
        return v > 0.5 / far ? 0.5 / v : far
    }
}
