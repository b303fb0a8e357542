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
/// Frames are kept compressed (about 0.2–0.4 MB each at 1440×1080, not the 2.3 MB of a Y′CbCr frame) for as long as
/// they are within the span of the newest one. The frame slots other consumers take meanwhile (a viewer of the video
/// data output, a still's exposure) leave gaps in the movie rather than starting it over: starting over at every gap
/// kept a ring that shared the stream with a viewer at a frame or two, so its pre-roll never grew, and the viewer's
/// share of the slots varies with how fast each side processes its frames.
final class LivePhotoRingBuffer: Sendable {
    private let frames = Mutex(Deque<LivePhotoMovieFrame>())
    /// The frame being compressed for ``append(compressing:span:)``, appended when it is done.
    private let pending = Mutex<Task<Void, Never>?>(nil)

    /// Compresses a frame on another task while the caller goes on (makes the next frame), then appends it.
    ///
    /// One frame is compressed at a time: a call waits for the previous frame to be in, so frames arrive in order.
    /// A frame `compress` cannot make (`nil`) leaves a gap.
    func append(compressing compress: @escaping @Sendable () -> LivePhotoMovieFrame?, span: MediaTime) async {
        await pending.withLock { $0 }?.value
        let task = Task {
            if let frame = compress() { self.append(frame, span: span) }
        }
        pending.withLock { $0 = task }
    }

    /// Waits until the frame being compressed, if any, is in.
    func waitForPendingFrame() async { await pending.withLock { $0 }?.value }

    /// Keeps `frame` and forgets frames that ended more than `span` before it (every frame when the device clock
    /// went back).
    func append(_ frame: LivePhotoMovieFrame, span: MediaTime) {
        frames.withLock { d in
            if let last = d.last, frame.time < last.time { d.removeAll() }
            d.append(frame)
            while let first = d.first, frame.end - first.end >= span { d.removeFirst() }
        }
    }

    /// How much time the kept frames would cover once a frame from `time` to `end` were appended with `span`
    /// (what ``span`` reads after ``append(_:span:)``).
    func span(appendingFrom time: MediaTime, to end: MediaTime, span: MediaTime) -> MediaTime {
        frames.withLock { d in
            guard let last = d.last, time >= last.time else { return end - time }
            return end - (d.first { end - $0.end < span }?.time ?? time)
        }
    }

    /// How much time the kept frames cover.
    var span: MediaTime { frames.withLock { d in d.first.map { d.last!.end - $0.time } ?? .zero } }

    /// The kept frames, oldest first.
    var contents: [LivePhotoMovieFrame] { frames.withLock { Array($0) } }

    /// Forgets every frame.
    func removeAll() { frames.withLock { $0.removeAll() } }
}
