import Synchronization

/// An item's exposed frames on their way to its processing, which takes them: the merge of a burst can then let
/// them go as soon as it is done, while the merged frame is developed.
final class ExposedFrames: Sendable {
    private let frames: Mutex<[RawFrame]>

    init(_ frames: [RawFrame]) { self.frames = Mutex(frames) }

    /// The frames; the holder keeps none.
    func take() -> [RawFrame] {
        frames.withLock { f in
            let taken = f
            f = []
            return taken
        }
    }
}
