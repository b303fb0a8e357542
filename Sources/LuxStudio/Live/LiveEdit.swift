import Foundation
import LuxFusion
import LuxLive
import LuxPixels

/// A Live Photo edit as the studio's editor sends it, as JSON: the filter chains, the seed's frame processors (a
/// fixed or time-based crop), a watermark, stabilisation and auto-trim, the trim, the key photo and the volume.
///
/// ```json
/// {"chain": "SepiaTone intensity=0.6", "photoChain": "Vignette intensity=1", "square": true, "slideCrop": true,
///  "watermark": {"file": "0/logo.png", "corner": "bottomRight", "width": 0.25}, "stabilize": true,
///  "trim": [0.4, 2.6], "keyPhoto": 1.2, "volume": 0}
/// ```
///
/// Every key is optional. It becomes a ``LivePhotoAdjustments`` recipe, which LuxLive turns into the editing
/// context's frame processor and settings: the studio itself renders nothing.
struct LiveEdit: Decodable, Sendable, Equatable {
    /// A filter chain (`lux filter --chain` text) for the still and every movie frame; parameters in pixels follow
    /// each frame's render scale (the seed's resolution-dependent line screen).
    var chain: String?
    /// A chain for the still only, after ``chain`` (the seed's photo-only watermark).
    var photoChain: String?
    /// Crops every frame to the centred square (the seed's static crop).
    var square: Bool?
    /// Crops every frame to `[x, y, width, height]` in fractions of the frame (before ``square``).
    var crop: [Double]?
    /// Slides the crop over the movie (the seed's time-based crop, ``LivePhotoCropMotion/slide``).
    var slideCrop: Bool?
    /// A logo composited in a corner of the still and every frame.
    var watermark: Watermark?
    /// Steadies the movie frames (LuxLive's ``LivePhotoStabilizer``).
    var stabilize: Bool?
    /// Trims a shoe shot found from the frames' motion (LuxLive's ``LivePhotoAutoTrimmer``); ``trim`` wins.
    var autoTrim: Bool?
    /// The part of the movie kept, `[start, end]` in seconds.
    var trim: [Double]?
    /// The time in seconds of the movie frame that becomes the still.
    var keyPhoto: Double?
    /// The audio gain, 0 (muted) … 1.
    var volume: Double?

    /// A watermark: an uploaded image in the gallery, or the studio's bundled Lux logo.
    struct Watermark: Decodable, Sendable, Equatable {
        /// The logo's gallery name (`0/logo.png`); absent: the bundled logo.
        var file: String?
        /// The corner (default: bottom right).
        var corner: LivePhotoWatermark.Corner?
        /// The logo's width as a fraction of the frame's (default 0.2).
        var width: Double?
        /// The logo's opacity 0…1 (default 1).
        var opacity: Double?

        /// The bundled logo's name among the front-end files.
        static let bundledName = "watermark.png"
    }

    /// The edit as LuxLive's recipe, with a watermark's file read from `gallery`.
    ///
    /// - Throws: ``StudioError/malformedMessage(_:)`` for a trim that is not two increasing times, a crop that is not
    ///   four fractions, a sliding crop without a crop, a negative key photo time or a volume outside 0…1;
    ///   ``StudioError/outsideGallery(_:)`` for a watermark file outside the gallery (LuxLive checks the rest when it
    ///   builds the processor).
    func adjustments(gallery: GalleryFolders) throws(StudioError) -> LivePhotoAdjustments {
        var recipe = LivePhotoAdjustments()
        recipe.filterChain = Self.nonEmpty(chain)
        recipe.photoFilterChain = Self.nonEmpty(photoChain)
        if square == true { recipe.aspectRatio = 1 }
        if let crop {
            guard crop.count == 4, crop.allSatisfy({ $0.isFinite && (0...1).contains($0) }), crop[2] > 0, crop[3] > 0
            else { throw .malformedMessage("'crop' must be [x, y, width, height] in fractions of the frame (0…1)") }
            recipe.crop = Rect(x: crop[0], y: crop[1], width: crop[2], height: crop[3])
        }
        if slideCrop == true {
            guard recipe.crop != nil || recipe.aspectRatio != nil else {
                throw .malformedMessage("'slideCrop' moves a crop: add 'square' or 'crop'")
            }
            recipe.cropMotion = .slide
        }
        if let watermark {
            let data: Data
            if let file = watermark.file {
                let url = try gallery.file(named: file)
                do { data = try Data(contentsOf: url) } catch {
                    throw .malformedMessage("\(file): the watermark cannot be read")
                }
            } else {
                data = Data(FrontEnd.files[Watermark.bundledName] ?? [])
            }
            recipe.watermark = LivePhotoWatermark(
                imageData: data, corner: watermark.corner ?? .bottomRight, width: watermark.width ?? 0.2,
                opacity: watermark.opacity ?? 1)
        }
        if stabilize == true { recipe.stabilization = LivePhotoStabilizer() }
        if autoTrim == true { recipe.autoTrim = LivePhotoAutoTrimmer() }
        if let trim {
            guard trim.count == 2, trim.allSatisfy(\.isFinite), trim[0] >= 0, trim[0] < trim[1] else {
                throw .malformedMessage("'trim' must be [start, end] in seconds, start < end")
            }
            recipe.timeRange = Self.time(trim[0])..<Self.time(trim[1])
        }
        if let keyPhoto {
            guard keyPhoto.isFinite, keyPhoto >= 0 else {
                throw .malformedMessage("'keyPhoto' must be a time in seconds, not \(keyPhoto)")
            }
            recipe.keyPhotoTime = Self.time(keyPhoto)
        }
        if let volume {
            guard volume.isFinite, (0...1).contains(volume) else {
                throw .malformedMessage("'volume' must be 0…1, not \(volume)")
            }
            recipe.audioVolume = volume
        }
        return recipe
    }

    /// Seconds on a 600-per-second timescale (QuickTime's, which every common frame rate divides).
    static func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 600) }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}
