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
    /// Frames go in in the order of the calls: each call's task appends after the previous call's, and a call returns
    /// once the previous frame is in (one frame is compressed while the caller makes the next). The task is the
    /// pending one from the moment of the call, so ``waitForPendingFrame()`` waits for every frame already handed
    /// over. A frame `compress` cannot make (`nil`) leaves a gap.
    func append(compressing compress: @escaping @Sendable () -> LivePhotoMovieFrame?, span: MediaTime) async {
        let previous = pending.withLock { p in
            let previous = p
            p = Task {
                let frame = compress()
                await previous?.value
                if let frame { self.append(frame, span: span) }
            }
            return previous
        }
        await previous?.value
    }

    /// Waits until the frames being compressed, if any, are in.
    func waitForPendingFrame() async { await pending.withLock { $0 }?.value }

    /// Keeps `frame` and forgets frames that ended `span` or more before the newest one.
    ///
    /// A frame from before the newest one that is still within `span` of it (made before frames that were appended
    /// first, as the idle session's last ring frame can be when a capture's own frames overtake it) goes in its
    /// place, or is dropped when a frame from the same time is kept; one from further back (the device clock went
    /// back) starts the ring over.
    func append(_ frame: LivePhotoMovieFrame, span: MediaTime) {
        frames.withLock { d in
            if let last = d.last, frame.time < last.time {
                guard Self.isLate(end: frame.end, newest: last, span: span) else {
                    d.removeAll()
                    d.append(frame)
                    return
                }
                let i = d.firstIndex { $0.time >= frame.time }!
                if d[i].time != frame.time { d.insert(frame, at: i) }
                return
            }
            d.append(frame)
            while let first = d.first, frame.end - first.end >= span { d.removeFirst() }
        }
    }

    /// Whether a frame from before `newest` that ends at `end` is a late one, kept in its place, rather than one
    /// from before the device clock went back, which starts the ring over.
    private static func isLate(end: MediaTime, newest: LivePhotoMovieFrame, span: MediaTime) -> Bool {
        newest.end - end < span
    }

    /// How much time the kept frames would cover once a frame from `time` to `end` were appended with `span`
    /// (what ``span`` reads after ``append(_:span:)``).
    func span(appendingFrom time: MediaTime, to end: MediaTime, span: MediaTime) -> MediaTime {
        frames.withLock { d in
            guard let first = d.first, let last = d.last else { return end - time }
            guard time >= last.time else {
                return Self.isLate(end: end, newest: last, span: span) ? last.end - min(first.time, time) : end - time
            }
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
