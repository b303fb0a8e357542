import ArgumentParser
import Foundation
import Lux

/// `lux live edit PAIR -o DIR ...`: edits a Live Photo and saves the still, the movie and the adjustment sidecar.
struct LiveEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract:
            "Edit a Live Photo (filters, crop, trim, volume, stabilisation) and save it with its adjustment data.",
        discussion: """
            The same filter chain runs on the still and on every movie frame; parameters in pixels (blur radii, \
            screen widths) are scaled to each frame's resolution. Movies are decoded whatever an iPhone recorded \
            (H.264, HEVC) and written as H.264 with AAC sound unless --codec says otherwise; frames are decoded, \
            rendered and encoded at the same time. The edited pair gets a new content identifier and a .luxedit \
            sidecar recording the recipe and the original files, so the edit can be re-applied (--reapply) or \
            reverted (--revert); Lux never writes Apple's .AAE sidecars, and reports one beside the original. The \
            originals are never modified. When the movie cannot be decoded (damaged, or a codec FFmpeg lacks), the \
            still is edited alone, as a plain photo, with a note.

            Examples:
              lux live edit IMG_0001.JPG -o edited --chain 'SepiaTone intensity=0.6 | GaussianBlur radius=8'
              lux live edit IMG_0001.JPG -o edited --square --volume 0.3 --trim 0.4,2.6
              lux live edit IMG_0001.JPG -o edited --square --slide-crop --watermark logo.png
              lux live edit IMG_0001.JPG -o edited --auto-trim --stabilize --preview 480x360
              lux live edit IMG_0001.JPG -o edited --trim 0.2,1.2 --key-photo 1.0
              lux live edit IMG_0001.HEIC -o edited --chain 'SepiaTone' --codec hevc --crf 24
              lux live edit --reapply edited/IMG_E0001.luxedit -o again
              lux live edit --revert edited/IMG_E0001.luxedit
            """)

    @Argument(help: "The still or the movie of the pair (not with --reapply/--revert).", completion: .file())
    var pair: String?

    @Option(
        name: [.customShort("o"), .customLong("out")], help: "The folder the edited pair is written to.",
        completion: .directory)
    var out: String?

    @Option(help: "The base name of the edited files (default: the original's with an E after its prefix, IMG_E0001).")
    var name: String?

    @Option(help: "A filter chain for the still and every movie frame.")
    var chain: String?

    @Option(help: "A filter chain for the still only (applied after --chain).")
    var photoChain: String?

    @Option(help: "Crop to x,y,width,height in fractions of the frame (0...1).")
    var crop: String?

    @Flag(help: "Crop to the centred square.")
    var square = false

    @Flag(
        help: """
            Slide the crop over the movie (the seed's time-based crop): from the frame's top-left corner at the \
            start, through its place at the still, to the opposite corner at the end.
            """)
    var slideCrop = false

    @Option(help: "Composite this logo (PNG with transparency, or any still Lux reads) on the still and every frame.")
    var watermark: String?

    @Option(help: "The watermark's corner: top-left, top-right, bottom-left or bottom-right.")
    var watermarkCorner = "bottom-right"

    @Option(parsing: .unconditional, help: "The watermark's width as a fraction of the frame's width (0...1).")
    var watermarkWidth = 0.2

    @Option(parsing: .unconditional, help: "Audio volume 0...1.")
    var volume: Double = 1

    @Option(help: "Keep only START,END seconds of the movie.")
    var trim: String?

    @Option(
        name: .customLong("key-photo"), parsing: .unconditional,
        help: "Make the movie frame showing at this many seconds the still (inside --trim).")
    var keyPhoto: Double?

    @Flag(help: "Trim a shoe shot (the camera raised or lowered) detected from the frames' motion.")
    var autoTrim = false

    @Flag(help: "Steady the movie frames.")
    var stabilize = false

    @Option(parsing: .unconditional, help: "The output orientation, 1...8 (Exif).")
    var orientation: Int?

    @Option(help: "Write a playback preview no larger than WIDTHxHEIGHT instead of the full edit.")
    var preview: String?

    @Option(help: "The edited movie's video codec: h264, hevc or mjpeg (Motion-JPEG).")
    var codec: VideoCodecArgument = .h264

    @Option(parsing: .unconditional, help: "The H.264/HEVC constant rate factor, 0...51 (lower: better and larger).")
    var crf: Double = VideoCompression().constantRateFactor

    @Option(help: "The H.264/HEVC encoder preset, ultrafast...veryslow.")
    var preset = VideoPresetArgument(VideoCompression().preset)

    @Option(help: "Re-apply the edit recorded in this .luxedit sidecar to its original.")
    var reapply: String?

    @Option(help: "Revert the edit recorded in this .luxedit sidecar (removes the edited files and the sidecar).")
    var revert: String?

    @Option(parsing: .unconditional, help: "Worker threads (default: one per processor).")
    var threads: Int?

    func validate() throws {
        if let revert {
            guard pair == nil, reapply == nil else {
                throw ValidationError("--revert takes only the sidecar: lux live edit --revert \(revert)")
            }
            return
        }
        guard (pair == nil) != (reapply == nil) else {
            throw ValidationError("give the Live Photo to edit, or --reapply SIDECAR (not both)")
        }
        guard out != nil else { throw ValidationError("--out (-o) names the folder for the edited pair") }
        guard (0...1).contains(volume) else { throw ValidationError("--volume must be 0...1, not \(volume)") }
        try validatePositive(threads, "--threads")
        if let orientation, !(1...8).contains(orientation) { throw ValidationError("--orientation must be 1...8") }
        if square && crop != nil { throw ValidationError("choose --square or --crop, not both") }
        if slideCrop && !square && crop == nil { throw ValidationError("--slide-crop moves --crop or --square") }
        if Self.corner(watermarkCorner) == nil {
            throw ValidationError(
                "--watermark-corner must be top-left, top-right, bottom-left or bottom-right, not \(watermarkCorner)")
        }
        guard watermarkWidth > 0, watermarkWidth <= 1 else {
            throw ValidationError("--watermark-width must be 0 < width ≤ 1, not \(watermarkWidth)")
        }
        if let crop, Self.numbers(crop)?.count != 4 {
            throw ValidationError("--crop takes x,y,width,height fractions, e.g. 0.1,0,0.8,1")
        }
        if let trim, Self.numbers(trim)?.count != 2 {
            throw ValidationError("--trim takes START,END seconds, e.g. 0.5,2.5")
        }
        if let keyPhoto, !(keyPhoto.isFinite && keyPhoto >= 0) {
            throw ValidationError("--key-photo takes a time in seconds from the movie's start, not \(keyPhoto)")
        }
        if let preview, Self.size(preview) == nil {
            throw ValidationError("--preview takes WIDTHxHEIGHT, e.g. 480x360")
        }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be 0...51, not \(crf)") }
    }

    static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        return parts.allSatisfy { $0 != nil } ? parts.map { $0! } : nil
    }

    static func size(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x").compactMap { Double($0) }
        return parts.count == 2 && parts.allSatisfy { $0 >= 1 } ? Size(width: parts[0], height: parts[1]) : nil
    }

    func run() async throws {
        do {
            if let revert {
                let sidecar = URL(fileURLWithPath: revert)
                let restored = try LivePhotoEditRecord(contentsOf: sidecar).revert(removingSidecar: sidecar)
                print("reverted: \(restored.photoURL.path) + \(restored.movieURL.lastPathComponent) remain")
                return
            }
            let folder = URL(fileURLWithPath: out!)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let live: LivePhoto
            let recipe: LivePhotoAdjustments
            if let reapply {
                let record = try LivePhotoEditRecord(contentsOf: URL(fileURLWithPath: reapply))
                recipe = try LivePhotoAdjustments(adjustmentData: record.adjustmentData)
                live = try Self.pair(photoURL: record.original.photoURL, movieURL: record.original.movieURL)
            } else {
                live = try Self.pair(URL(fileURLWithPath: pair!))
                recipe = try makeRecipe()
            }
            if let apple = AppleAdjustmentSidecar.url(besidePhoto: live.photoURL) {
                print(
                    "note: \(apple.lastPathComponent) records an edit made in Photos; Lux edits the original pixels "
                        + "and leaves the .AAE as it is")
            }
            var context = try LivePhotoEditingContext(livePhoto: live, adjustments: recipe)
            context.threads = threads
            let base = name ?? Self.editedName(live.photoURL.deletingPathExtension().lastPathComponent)
            var output = LivePhotoEditingOutput(
                directory: folder, baseName: base, adjustmentData: try recipe.adjustmentData())
            output.videoCodec = codec.codec
            output.videoCompression = VideoCompression(preset: preset.preset, constantRateFactor: crf)
            if let problem = context.movieProblem {
                try await saveStillAlone(context, output: output, because: problem)
                return
            }
            // The processor sees the still and every movie frame in the time range once: a progress bar on a terminal.
            let frames = context.videoFrameTimes.filter { context.timeRange.contains($0) }.count + 1
            let progress = ProgressBar(total: frames, label: preview == nil ? "saving" : "preparing preview")
            defer { progress.finish() }
            let processor = context.frameProcessor
            var counted = context
            counted.frameProcessor = { frame in
                progress.advance()
                return try processor?(frame) ?? frame.image
            }
            let start = Date()
            if let preview {
                let result = try await counted.prepareForPlayback(targetSize: Self.size(preview)!, in: folder)
                progress.finish()
                print(
                    "preview: \(result.photoURL.path) + \(result.movieURL.lastPathComponent) "
                        + String(format: "(%.2f s)", Date().timeIntervalSince(start)))
                return
            }
            let edited: LivePhoto
            do {
                edited = try await counted.save(to: output)
            } catch {
                // The movie's frames turned out to be damaged: nothing was written; the still alone is edited.
                guard case .unreadable(let url, _) = error, url == live.movieURL else { throw error }
                progress.finish()
                try await saveStillAlone(context, output: output, because: error)
                return
            }
            progress.finish()
            print(
                "\(edited.photoURL.path) + \(edited.movieURL.lastPathComponent) + \(output.adjustmentDataURL.lastPathComponent)"
            )
            print(
                String(
                    format: "  identifier %@, photo at %.3f s of %.3f s, saved in %.2f s", edited.contentIdentifier,
                    edited.photoTime.seconds, edited.duration.seconds, Date().timeIntervalSince(start)))
        } catch let e as LivePhotoError {
            throw e.cliError
        }
    }

    /// Saves the edited still alone (the movie cannot be rendered) and says why.
    private func saveStillAlone(
        _ context: LivePhotoEditingContext, output: LivePhotoEditingOutput, because problem: LivePhotoError
    )
        async throws
    {
        guard preview == nil else { throw problem.cliError }
        let still = try await context.saveStill(to: output)
        print(still.path)
        print(
            "note: only the still was edited (a plain photo, no longer paired): \(problem.description). "
                + "The movie \(context.livePhoto.movieURL.lastPathComponent) is unchanged.")
    }

    /// The pair `url` belongs to; when its movie cannot be read, the still alone (its movie's problem is then
    /// reported by the editing context).
    static func pair(_ url: URL) throws(LivePhotoError) -> LivePhoto {
        do {
            return try LivePhoto(pairing: url)
        } catch .unreadable(let bad, let error) {
            guard !LivePhoto.isMovie(url), bad != url, let movie = LivePhoto.partnerURL(of: url) else {
                throw .unreadable(bad, error)
            }
            return LivePhoto(photoURL: url, movieURL: movie, contentIdentifier: "", photoTime: .zero, duration: .zero)
        }
    }

    /// The pair of a sidecar's original files, read again (tolerating an unreadable movie as ``pair(_:)`` does).
    static func pair(photoURL: URL, movieURL: URL) throws(LivePhotoError) -> LivePhoto {
        do {
            return try LivePhoto(photoURL: photoURL, movieURL: movieURL, requiresIdentifier: false)
        } catch .unreadable(let bad, let error) {
            guard bad == movieURL else { throw .unreadable(bad, error) }
            return LivePhoto(
                photoURL: photoURL, movieURL: movieURL, contentIdentifier: "", photoTime: .zero, duration: .zero)
        }
    }

    /// `top-left` … as a watermark corner.
    static func corner(_ text: String) -> LivePhotoWatermark.Corner? {
        LivePhotoWatermark.Corner.allCases.first { corner in
            corner.rawValue.map { $0.isUppercase ? "-" + $0.lowercased() : String($0) }.joined() == text
        }
    }

    private func makeRecipe() throws -> LivePhotoAdjustments {
        var recipe = LivePhotoAdjustments(filterChain: chain, photoFilterChain: photoChain, audioVolume: volume)
        if let crop, let v = Self.numbers(crop) { recipe.crop = Rect(x: v[0], y: v[1], width: v[2], height: v[3]) }
        if square { recipe.aspectRatio = 1 }
        if slideCrop { recipe.cropMotion = .slide }
        if let watermark {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: watermark)) } catch {
                throw CLIError("\(watermark): the watermark cannot be read (\(error.localizedDescription))")
            }
            recipe.watermark = LivePhotoWatermark(
                imageData: data, corner: Self.corner(watermarkCorner) ?? .bottomRight, width: watermarkWidth)
        }
        if let trim, let v = Self.numbers(trim) {
            recipe.timeRange =
                MediaTime(seconds: v[0], preferredTimescale: 600)..<MediaTime(seconds: v[1], preferredTimescale: 600)
        }
        if let keyPhoto { recipe.keyPhotoTime = MediaTime(seconds: keyPhoto, preferredTimescale: 600) }
        if autoTrim { recipe.autoTrim = LivePhotoAutoTrimmer() }
        if stabilize { recipe.stabilization = LivePhotoStabilizer() }
        if let orientation { recipe.orientation = Orientation(rawValue: UInt16(orientation)) }
        return recipe
    }

    /// IMG_0001 → IMG_E0001 (Photos' naming for edits); other names get "-edited".
    static func editedName(_ base: String) -> String {
        if let underscore = base.firstIndex(of: "_"), base[base.index(after: underscore)...].allSatisfy(\.isNumber) {
            return base[...underscore] + "E" + base[base.index(after: underscore)...]
        }
        return base + "-edited"
    }
}
