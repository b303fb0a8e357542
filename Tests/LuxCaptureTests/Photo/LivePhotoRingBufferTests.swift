import Glibc
import LuxPixels
import Testing

@testable import LuxCapture

/// The Live Photo ring buffer's span, read before a frame is appended (the recorder decides whether to make another
/// frame while the last one is still being compressed): hand-counted spans of 1/30 s frames.
@Suite struct LivePhotoRingBufferTests {
    /// Frame `k` of a 30 fps stream: from k/30 s to (k + 1)/30 s.
    static func frame(_ k: Int64) -> LivePhotoMovieFrame {
        LivePhotoMovieFrame(
            jpeg: [], reduced: PixelBuffer(width: 1, height: 1, format: .rgba8),
            time: MediaTime(value: k, timescale: 30), duration: MediaTime(value: 1, timescale: 30))
    }

    static let span = MediaTime(value: 3, timescale: 2)

    @Test("an empty ring spans one frame once it is appended")
    func empty() {
        let ring = LivePhotoRingBuffer()
        let f = Self.frame(7)
        #expect(ring.span(appendingFrom: f.time, to: f.end, span: Self.span) == MediaTime(value: 1, timescale: 30))
    }

    @Test("frames 0…44 span 1.5 s; appending frame 45 drops frame 0 and still spans 1.5 s")
    func full() {
        let ring = LivePhotoRingBuffer()
        for k in 0..<44 {
            let f = Self.frame(Int64(k))
            // Frames 0…k span (k + 1)/30 s.
            #expect(
                ring.span(appendingFrom: f.time, to: f.end, span: Self.span)
                    == MediaTime(value: Int64(k + 1), timescale: 30))
            ring.append(f, span: Self.span)
        }
        let f44 = Self.frame(44)
        #expect(ring.span(appendingFrom: f44.time, to: f44.end, span: Self.span) == Self.span)
        ring.append(f44, span: Self.span)
        #expect(ring.span == Self.span)
        // Frame 45 ends at 46/30 s; frame 0 ends 1.5 s before it and goes, frame 1 (from 1/30 s) stays.
        let f45 = Self.frame(45)
        #expect(ring.span(appendingFrom: f45.time, to: f45.end, span: Self.span) == Self.span)
        ring.append(f45, span: Self.span)
        #expect(ring.contents.first?.time == MediaTime(value: 1, timescale: 30))
        #expect(ring.contents.count == 45)
    }

    @Test("a frame from more than the span before the newest one (the device clock went back) starts the ring over")
    func clockWentBack() {
        let ring = LivePhotoRingBuffer()
        // Frame 99 ends at 100/30 s; frame 3 ends at 4/30 s, 3.2 s (more than 1.5 s) before it.
        for k in 90..<100 { ring.append(Self.frame(Int64(k)), span: Self.span) }
        let f = Self.frame(3)
        #expect(ring.span(appendingFrom: f.time, to: f.end, span: Self.span) == MediaTime(value: 1, timescale: 30))
        ring.append(f, span: Self.span)
        #expect(ring.contents.count == 1)
    }

    @Test("a frame made before the newest but after the oldest goes in its place; one from a kept time is dropped")
    func lateFrame() {
        let ring = LivePhotoRingBuffer()
        for k in [10, 11, 13, 14] { ring.append(Self.frame(Int64(k)), span: Self.span) }
        let f = Self.frame(12)
        // Frames 10…14 span 5/30 s with or without the late frame.
        #expect(ring.span(appendingFrom: f.time, to: f.end, span: Self.span) == MediaTime(value: 5, timescale: 30))
        ring.append(f, span: Self.span)
        ring.append(Self.frame(13), span: Self.span)
        #expect(ring.contents.map(\.time.value) == [10, 11, 12, 13, 14])
        #expect(ring.span == MediaTime(value: 5, timescale: 30))
    }

    @Test("a frame handed over for compression before frames appended directly is in, in its place, once waited for")
    func compressedFrameOvertaken() async {
        let ring = LivePhotoRingBuffer()
        // The idle session's ring frame (0) is still compressing when a capture appends its own frames (1…5).
        await ring.append(
            compressing: {
                usleep(50_000)
                return Self.frame(0)
            }, span: Self.span)
        for k in 1...5 { ring.append(Self.frame(Int64(k)), span: Self.span) }
        await ring.waitForPendingFrame()
        #expect(ring.contents.map(\.time.value) == Array(0...5))
    }

    @Test("frames handed over one after another go in in order, however long each takes to compress")
    func handOverOrder() async {
        let ring = LivePhotoRingBuffer()
        for k in 0..<6 {
            await ring.append(
                compressing: {
                    // The earlier frames take longer to compress than the later ones.
                    usleep(UInt32(6 - k) * 5_000)
                    return Self.frame(Int64(k))
                }, span: Self.span)
        }
        await ring.waitForPendingFrame()
        #expect(ring.contents.map(\.time.value) == Array(0..<6))
    }
}
