import DequeModule
import LuxPixels
import Synchronization

/// One movie frame kept for a Live Photo: JPEG-compressed at the movie's size, with a small copy for motion analysis.
struct LivePhotoMovieFrame: Sendable {
    var jpeg: [UInt8]
    /// The frame reduced for the stabiliser and the shoe-shot detector.
    var reduced: PixelBuffer
    /// The start of its exposure on the device clock.
    var time: MediaTime
    var duration: MediaTime

    var end: MediaTime { time + duration }
}

/// The last seconds of movie-resolution frames a photo output keeps while Live Photo capture is enabled (the
/// device's ring buffer): a Live Photo's movie starts with what it holds when the shutter is pressed.
///
/// Frames are kept compressed (about 0.2–0.4 MB each at 1440×1080, not the 2.3 MB of a Y′CbCr frame) and only while
/// they follow each other closely: the few frame slots other consumers take in between (a viewer of the video data
/// output takes every other one) are skipped over, a longer gap in the device clock starts over.
final class LivePhotoRingBuffer: Sendable {
    private let frames = Mutex(Deque<LivePhotoMovieFrame>())

    /// The longest gap between two kept frames, in frame durations of the earlier one.
    ///
    /// Starting over at every gap kept a ring that shared the stream with a viewer at one frame, so its pre-roll
    /// never grew.
    static let maximumGap = 3.5

    /// Keeps `frame` and forgets frames that ended more than `span` before it.
    func append(_ frame: LivePhotoMovieFrame, span: MediaTime) {
        frames.withLock { d in
            if let last = d.last,
                frame.time - last.end > last.duration.multiplied(by: Self.maximumGap) || frame.time < last.time
            {
                d.removeAll()
            }
            d.append(frame)
            while let first = d.first, frame.end - first.end >= span { d.removeFirst() }
        }
    }

    /// How much time the kept frames cover.
    var span: MediaTime { frames.withLock { d in d.first.map { d.last!.end - $0.time } ?? .zero } }

    /// The kept frames, oldest first.
    var contents: [LivePhotoMovieFrame] { frames.withLock { Array($0) } }

    /// Forgets every frame.
    func removeAll() { frames.withLock { $0.removeAll() } }
}
