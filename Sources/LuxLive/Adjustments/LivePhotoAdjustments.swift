import Foundation
import FoundationEssentials
public import LuxCodecs
public import LuxFilters
public import LuxFusion
public import LuxPixels
public import LuxRender

/// Lux's own serialisable Live Photo edit: filter chains, a crop (fixed or sliding over time), a watermark, a trim,
/// the key photo, the audio volume and the orientation.
///
/// It becomes a frame processor and context settings, and round-trips through ``AdjustmentData`` (JSON), so a saved
/// edit can be re-applied to the original.
///
/// ```swift
/// var recipe = LivePhotoAdjustments()
/// recipe.filterChain = "SepiaTone intensity=0.6 | GaussianBlur radius=6"
/// recipe.crop = Rect(x: 0.125, y: 0, width: 0.75, height: 1)   // fractions of the frame
/// recipe.audioVolume = 0.5
/// var context = try LivePhotoEditingContext(livePhoto: live, adjustments: recipe)
/// try await context.save(to: LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0001",
///                                                   adjustmentData: try recipe.adjustmentData()))
/// ```
///
/// Parameters measured in pixels (``FilterParameter/Unit/pixels``: blur radii, screen widths, centres) are
/// multiplied by each frame's ``LivePhotoFrame/renderScale``, so the effect looks the same on the still, the
/// movie frames and previews. Frames are extended at their edges before the chains and cropped back after them,
/// so blurs do not darken the borders.
public struct LivePhotoAdjustments: Hashable, Sendable, Codable {
    /// A filter chain (``FilterChain`` syntax) applied to the still and every movie frame.
    public var filterChain: String?
    /// A chain applied to the still only, after ``filterChain`` (a watermark, a signature).
    public var photoFilterChain: String?
    /// A crop in fractions of the frame (0…1 in x and y), applied to every frame after the chains.
    public var crop: Rect?
    /// Crops (after ``crop``) to the largest centred rectangle of this width-to-height ratio (1: a square).
    public var aspectRatio: Double?
    /// How the crop (``crop`` and ``aspectRatio``) moves over the movie (`nil`: it stays put); the still always
    /// shows it in place.
    public var cropMotion: LivePhotoCropMotion?
    /// A logo composited in a corner of the still and of every movie frame, after the crop (`nil`: none).
    public var watermark: LivePhotoWatermark?
    /// The part of the movie kept (`nil`: all).
    public var timeRange: Range<MediaTime>?
    /// The time of the movie frame that becomes the still (``LivePhotoEditingContext/keyPhotoTime``; `nil`: the
    /// original still).
    public var keyPhotoTime: MediaTime?
    /// The audio gain 0…1.
    public var audioVolume: Double
    /// The output orientation (`nil`: the still's).
    public var orientation: Orientation?
    /// Trims a shoe shot, measured from the movie's frames when the recipe is applied (`nil`: no auto-trim;
    /// an explicit ``timeRange`` wins).
    public var autoTrim: LivePhotoAutoTrimmer?
    /// Steadies the movie frames (`nil`: no stabilisation).
    public var stabilization: LivePhotoStabilizer?

    /// The format identifier of Lux's recipe in ``AdjustmentData``.
    public static let formatIdentifier = "org.lux.live-photo-adjustments"
    /// The format version written.
    public static let formatVersion = "1.0"

    /// Creates a recipe that changes nothing.
    public init(
        filterChain: String? = nil, photoFilterChain: String? = nil, crop: Rect? = nil, aspectRatio: Double? = nil,
        timeRange: Range<MediaTime>? = nil, keyPhotoTime: MediaTime? = nil, audioVolume: Double = 1,
        orientation: Orientation? = nil, autoTrim: LivePhotoAutoTrimmer? = nil,
        stabilization: LivePhotoStabilizer? = nil, cropMotion: LivePhotoCropMotion? = nil,
        watermark: LivePhotoWatermark? = nil
    ) {
        self.filterChain = filterChain
        self.photoFilterChain = photoFilterChain
        self.crop = crop
        self.aspectRatio = aspectRatio
        self.timeRange = timeRange
        self.keyPhotoTime = keyPhotoTime
        self.audioVolume = audioVolume
        self.orientation = orientation
        self.autoTrim = autoTrim
        self.stabilization = stabilization
        self.cropMotion = cropMotion
        self.watermark = watermark
    }

    /// Reads a recipe from adjustment data Lux wrote.
    ///
    /// - Throws: ``LivePhotoError/adjustments(_:)`` for another format, a newer major version, or bad JSON.
    public init(adjustmentData: AdjustmentData) throws(LivePhotoError) {
        guard adjustmentData.formatIdentifier == Self.formatIdentifier else {
            throw .adjustments(
                "the adjustment data is in format \(adjustmentData.formatIdentifier), not \(Self.formatIdentifier)")
        }
        guard adjustmentData.formatVersion.split(separator: ".").first == "1" else {
            throw .adjustments("adjustment format version \(adjustmentData.formatVersion) is newer than 1.x")
        }
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(adjustmentData.data))
        } catch {
            throw .adjustments("the recipe cannot be decoded: \(error)")
        }
    }

    /// The recipe as adjustment data (sorted-key JSON).
    public func adjustmentData() throws(LivePhotoError) -> AdjustmentData {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return AdjustmentData(
                formatIdentifier: Self.formatIdentifier, formatVersion: Self.formatVersion,
                data: [UInt8](try encoder.encode(self)))
        } catch {
            throw .adjustments("the recipe cannot be encoded: \(error)")
        }
    }

    /// A frame processor applying the chains, the crop and the watermark.
    ///
    /// - Parameters:
    ///   - registry: Where the chains' filters are looked up.
    ///   - stillTime: When the still is taken on the movie's timeline, and `duration` the movie's length: the
    ///     pivot and the end of ``cropMotion``'s ramp (without them the crop stays put).
    /// - Throws: ``LivePhotoError/adjustments(_:)`` when a chain does not parse or names unknown filters or
    ///   parameters, or the watermark's settings or image are bad (checked now, not at render time).
    public func makeFrameProcessor(
        registry: FilterRegistry = .builtIn, stillTime: MediaTime? = nil, duration: MediaTime? = nil
    ) throws(LivePhotoError) -> LivePhotoEditingContext.FrameProcessor {
        let all = try filterChain.map { (text) throws(LivePhotoError) in try Self.parse(text, registry: registry) }
        let photo = try photoFilterChain.map { (text) throws(LivePhotoError) in try Self.parse(text, registry: registry)
        }
        // Validate once at full scale so errors surface here.
        for chain in [all, photo].compactMap({ $0 }) {
            do {
                _ = try chain.scaled(by: 1, registry: registry).apply(to: Image(color: .black), registry: registry) {
                    path in
                    throw FilterError.imageLoad(
                        path: path, reason: "image parameters are not supported in Live Photo recipes")
                }
            } catch {
                throw .adjustments("\(chain): \(error)")
            }
        }
        let crop = crop
        let aspect = aspectRatio
        let motion = cropMotion
        let logo = try watermark.map { (w) throws(LivePhotoError) in (w, try w.decodedLogo()) }
        return { frame in
            // Edges are extended before the chains so neighbourhood filters do not darken the borders; the
            // result is cropped back to the frame.
            let source = frame.image.extent
            // A frame no chain applies to stays the frame's own image (a movie whose frames all stay so is copied
            // when saved, not encoded again).
            let chained = all != nil || (photo != nil && frame.type == .photo)
            var image = chained ? frame.image.clampedToExtent() : frame.image
            let noImages: (String) throws -> Image = { path in
                throw FilterError.imageLoad(
                    path: path, reason: "image parameters are not supported in Live Photo recipes")
            }
            if let all {
                image = try all.scaled(by: frame.renderScale, registry: registry).apply(
                    to: image, registry: registry, loadImage: noImages)
            }
            if frame.type == .photo, let photo {
                image = try photo.scaled(by: frame.renderScale, registry: registry).apply(
                    to: image, registry: registry, loadImage: noImages)
            }
            if chained, image.extent.contains(source) { image = image.cropped(to: source) }
            let uncropped = image.extent
            var window = uncropped
            if let c = crop {
                window = window.intersection(
                    Rect(
                        x: source.minX + c.minX * source.width, y: source.minY + c.minY * source.height,
                        width: c.width * source.width, height: c.height * source.height))
            }
            if let ratio = aspect, ratio > 0 {
                let w = min(window.width, window.height * ratio)
                let h = w / ratio
                window = Rect(x: window.midX - w / 2, y: window.midY - h / 2, width: w, height: h)
            }
            if motion == .slide, frame.type == .video, let stillTime, let duration {
                let dt = LivePhotoCropMotion.ramp(at: frame.time, pivot: stillTime, duration: duration)
                window = LivePhotoCropMotion.slid(window, by: dt, in: uncropped)
            }
            if window != uncropped { image = image.cropped(to: window) }
            if let (w, logo) = logo { image = w.composite(logo, over: image, frame: image.extent) }
            return image
        }
    }

    static func parse(_ text: String, registry: FilterRegistry) throws(LivePhotoError) -> FilterChain {
        do { return try FilterChain(parsing: text) } catch { throw .adjustments("\(error)") }
    }
}

extension LivePhotoEditingContext {
    /// Opens a Live Photo for editing with a recipe applied (processor, trim, key photo, volume, orientation,
    /// stabilisation); a sliding crop pivots on the still's time (the key photo's when one is chosen).
    ///
    /// Auto-trimming and stabilisation measure the movie's motion now (each frame is decoded once); they are skipped
    /// when the movie cannot be rendered (``movieProblem``), so the still can still be edited alone.
    ///
    /// - Throws: ``LivePhotoError`` from reading the still or the movie's frames, or building the recipe's filters.
    public init(livePhoto: LivePhoto, adjustments: LivePhotoAdjustments, registry: FilterRegistry = .builtIn)
        throws(LivePhotoError)
    {
        try self.init(livePhoto: livePhoto)
        keyPhotoTime = adjustments.keyPhotoTime
        frameProcessor = try adjustments.makeFrameProcessor(
            registry: registry, stillTime: stillTime, duration: duration)
        if movieProblem == nil, adjustments.autoTrim != nil || adjustments.stabilization != nil {
            let analysis = try analyzeVideo(motion: adjustments.autoTrim != nil, stabilizer: adjustments.stabilization)
            if let trimmer = adjustments.autoTrim {
                timeRange = trimmer.trimRange(
                    motion: analysis.motion, frameTimes: videoFrameTimes, frameWidth: videoWidth, photoTime: stillTime,
                    duration: duration)
            }
            if adjustments.stabilization != nil { videoFrameTransforms = analysis.transforms }
        }
        if let range = adjustments.timeRange { timeRange = range }
        audioVolume = adjustments.audioVolume
        if let o = adjustments.orientation { orientation = o }
    }
}

extension FilterChain {
    /// The chain with every numeric argument measured in pixels multiplied by `factor`.
    func scaled(by factor: Double, registry: FilterRegistry) -> FilterChain {
        guard factor != 1 else { return self }
        var copy = self
        for (i, step) in steps.enumerated() {
            guard let descriptor = try? registry.descriptor(named: step.name) else { continue }
            for (j, arg) in step.arguments.enumerated() {
                guard let p = FilterArguments.parameter(arg.key, in: descriptor), p.unit == .pixels else { continue }
                let parts = arg.value.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { continue }
                copy.steps[i].arguments[j].value = parts.map { String($0! * factor) }.joined(separator: ",")
            }
        }
        return copy
    }
}
