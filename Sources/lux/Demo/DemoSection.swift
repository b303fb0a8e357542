import Foundation

/// One step of the demo's story as the contact sheet and the summary show it: a capture request or a
/// processing step, its settings, its timeline and the files it wrote.
struct DemoSection {
    /// A file the step wrote, with what the contact sheet shows of it.
    struct Item {
        /// The file's name, relative to the output folder.
        var file: String
        /// One line about it ("4032×3024 JPEG, Display P3").
        var caption: String
        /// The preview of an image (thumbnail and histogram); `nil` for files that are not images (movies).
        var preview: DemoPreview?
    }

    /// A moment of the step's timeline: a capture event, a scene-monitoring change, a render.
    struct Event {
        /// Milliseconds since the step started.
        var milliseconds: Double
        /// The callback or step name ("willBeginCapture", "isFlashScene").
        var name: String
        /// What it carried ("→ 01-balanced.jpg").
        var detail: String = ""
    }

    /// The heading ("Balanced JPEG").
    var title: String
    /// A sentence on what the step shows.
    var story: String
    /// The resolved settings (captures) or parameters (processing), in display order.
    var settings: [(String, String)] = []
    /// The timeline, in order.
    var events: [Event] = []
    /// The files written.
    var items: [Item] = []
}

/// Milliseconds elapsed since `start`.
func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}
