import LuxLive
import LuxPixels

/// A Live Photo edit as the studio's editor sends it, as JSON: the filter chains, the seed's frame processors, the
/// trim, the key photo and the volume.
///
/// ```json
/// {"chain": "SepiaTone intensity=0.6", "photoChain": "Vignette intensity=1", "square": true,
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
    /// The part of the movie kept, `[start, end]` in seconds.
    var trim: [Double]?
    /// The time in seconds of the movie frame that becomes the still.
    var keyPhoto: Double?
    /// The audio gain, 0 (muted) … 1.
    var volume: Double?

    /// The edit as LuxLive's recipe.
    ///
    /// - Throws: ``StudioError/malformedMessage(_:)`` for a trim that is not two increasing times, a negative key
    ///   photo time or a volume outside 0…1 (LuxLive checks the rest against the movie when it renders).
    func adjustments() throws(StudioError) -> LivePhotoAdjustments {
        var recipe = LivePhotoAdjustments()
        recipe.filterChain = Self.nonEmpty(chain)
        recipe.photoFilterChain = Self.nonEmpty(photoChain)
        if square == true { recipe.aspectRatio = 1 }
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
