import Foundation
import Lux

/// Makes one photo capture request, writes each delivered photo, and records the resolved settings and the
/// event timeline (each callback's name and its time since the request) as a ``DemoSection``.
struct CaptureRecorder {
    let output: PhotoOutput
    let folder: URL

    /// Captures `settings`; `name(photo)` is the file name of each delivered photo.
    ///
    /// The timeline counts from `start` (default: the request).
    func capture(
        _ settings: PhotoSettings, title: String, story: String, start: ContinuousClock.Instant = .now,
        name: (CapturedPhoto) -> String
    ) async throws -> DemoSection {
        var section = DemoSection(title: title, story: story)
        let stream = try output.capturePhoto(settings)
        section.events.append(DemoSection.Event(milliseconds: milliseconds(since: start), name: "capturePhoto"))
        for try await event in stream {
            let ms = milliseconds(since: start)
            var detail = ""
            switch event {
            case .willBeginCapture(let resolved):
                section.settings = Self.rows(resolved, requested: settings)
            case .didFinishProcessingPhoto(let photo):
                let file = name(photo)
                try Data(try photo.fileDataRepresentation()).write(
                    to: folder.appendingPathComponent(file), options: .atomic)
                detail = "\(photo) → \(file)"
                section.items.append(DemoSection.Item(file: file, caption: ""))
            case .didFinishRecordingLivePhotoMovie(_, let url):
                detail = url.lastPathComponent
            case .didFinishProcessingLivePhotoMovie(_, let url, let duration, let photoTime):
                detail = String(
                    format: "%@, %.2f s, still at %.2f s", url.lastPathComponent, duration.seconds, photoTime.seconds)
                section.items.append(DemoSection.Item(file: url.lastPathComponent, caption: ""))
            case .didFinishCapture(let resolved):
                let range = resolved.photoProcessingTimeRange
                detail = String(
                    format: "expected %.0f–%.0f ms", Self.ms(range.lowerBound), Self.ms(range.upperBound))
            default:
                break
            }
            section.events.append(DemoSection.Event(milliseconds: ms, name: event.name, detail: detail))
        }
        return section
    }

    /// The resolved settings as the contact sheet lists them.
    static func rows(_ r: ResolvedPhotoSettings, requested: PhotoSettings) -> [(String, String)] {
        var rows: [(String, String)] = [("unique ID", "\(r.uniqueID)")]
        if r.photoDimensions != .zero {
            rows.append(("photo", "\(r.photoDimensions) \(requested.processedFormat.map { "\($0)" } ?? "")"))
        }
        if r.rawPhotoDimensions != .zero { rows.append(("RAW", "\(r.rawPhotoDimensions) DNG")) }
        if r.previewDimensions != .zero { rows.append(("preview", "\(r.previewDimensions)")) }
        if let bracket = r.bracket { rows.append(("bracket", bracket.map { "\($0)" }.joined(separator: ", "))) }
        if r.livePhotoMovieDimensions != .zero {
            rows.append(
                (
                    "Live Photo movie",
                    "\(r.livePhotoMovieDimensions)" + (r.livePhotoMovieHasAudio ? ", with sound" : ", no sound")
                ))
        }
        rows.append(("flash", "\(requested.flashMode) → \(r.isFlashEnabled ? "fires" : "off")"))
        rows.append(("still-image stabilisation", r.isStillImageStabilizationEnabled ? "on" : "off"))
        rows.append(("quality prioritisation", "\(r.qualityPrioritization)"))
        rows.append(("processing", "\(r.processing)"))
        rows.append(
            (
                "scene",
                String(
                    format: "EV₁₀₀ %.1f, %.1f %% clipped", r.processing.sceneEV100, 100 * r.processing.clippedFraction)
            ))
        rows.append(("colour space", r.colorSpace.rawValue))
        rows.append(("photos", "\(r.expectedPhotoCount)"))
        rows.append(
            (
                "expected time",
                String(
                    format: "%.0f–%.0f ms", ms(r.photoProcessingTimeRange.lowerBound),
                    ms(r.photoProcessingTimeRange.upperBound))
            ))
        return rows
    }

    static func ms(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}
