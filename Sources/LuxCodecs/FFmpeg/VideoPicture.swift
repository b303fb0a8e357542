internal import CAVCodec
internal import CAVUtil
internal import CLuxMediaShims
import LuxPixels
import Synchronization

/// A picture in the encoder's Y′CbCr (8-bit 4:2:0, video range, BT.709 matrix), converted from RGB by LuxCodecs'
/// kernel: luma per pixel, chroma from each 2 × 2 block's mean colour.
///
/// Immutable once made, so it may cross threads: frames are converted in parallel and encoded in order. The
/// pictures' memory is recycled: a picture the encoder has let go of returns its frame to a small process-wide set
/// that the next picture of the same size takes (a fresh 3 MB picture per movie frame cost the kernel a page clear
/// per 4 KB).
final class VideoPicture: @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>

    /// Converts `pixels` (`.rgba8`, already in the track's colour space) into a new picture.
    ///
    /// - Throws: ``CodecError/io(path:reason:)`` when memory runs out; ``CodecError/library(name:message:)`` when
    ///   FFmpeg's libraries cannot be loaded.
    init(converting pixels: PixelBuffer) throws(CodecError) {
        precondition(pixels.format == .rgba8, "pictures are converted from .rgba8 pixels")
        frame = try Self.idle.take(width: pixels.width, height: pixels.height)
        guard let y = frame.plane(0), let cb = frame.plane(1), let cr = frame.plane(2) else {
            throw .io(path: "video frame", reason: "FFmpeg gave a picture without planes")
        }
        let strides = (frame.bytesPerRow(0), frame.bytesPerRow(1), frame.bytesPerRow(2))
        pixels.withUnsafePlane(0) { plane in
            lux_rgba8_to_yuv420(
                plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow, pixels.width, pixels.height,
                Self.bt709VideoRange, y, strides.0, cb, strides.1, cr, strides.2, 0, (pixels.height + 1) / 2)
        }
    }

    deinit { Self.idle.give(frame) }

    /// The picture's size in bytes (its three planes).
    var byteCount: Int { Int(frame.pointee.width) * Int(frame.pointee.height) * 3 / 2 }

    /// The codes of plane `i` (0: Y′, 1: Cb, 2: Cr), row after row without padding.
    func codes(ofPlane i: Int) -> [UInt8] {
        let w = Int(frame.pointee.width)
        let h = Int(frame.pointee.height)
        let (pw, ph) = i == 0 ? (w, h) : ((w + 1) / 2, (h + 1) / 2)
        guard let base = frame.plane(i) else { return [] }
        let stride = frame.bytesPerRow(i)
        return (0..<ph).flatMap { y in Array(UnsafeBufferPointer(start: base + y * stride, count: pw)) }
    }

    /// R′G′B′ codes → BT.709 video-range Y′CbCr for `lux_rgba8_to_yuv420`: Y′ = 16 + 219/255 (Kr R′ + Kg G′ + Kb B′),
    /// Cb = 128 + 224/255 (B′ − Y″)/(2 (1 − Kb)) and Cr = 128 + 224/255 (R′ − Y″)/(2 (1 − Kr)) with Y″ the unscaled
    /// luma, the chroma rows over sums of four pixels.
    static let bt709VideoRange: [Float] = {
        let (kr, kb) = YCbCrMatrix.bt709.coefficients
        let kg = 1 - kr - kb
        let y: Float = 219 / 255
        let c: Float = 224 / 255 / 4
        let cb = c / (2 * (1 - kb))
        let cr = c / (2 * (1 - kr))
        return [
            y * kr, y * kg, y * kb, 16,
            -kr * cb, -kg * cb, (1 - kb) * cb, 128,
            (1 - kr) * cr, -kg * cr, -kb * cr, 128,
        ]
    }()

    /// The idle frames.
    private static let idle = IdleFrames()
}

/// AVFrames of encoder pictures no picture uses, kept for reuse (at most ``limit`` of them).
private final class IdleFrames: Sendable {
    /// An AVFrame pointer, moved between threads under the lock.
    private struct Frame: @unchecked Sendable {
        var pointer: UnsafeMutablePointer<AVFrame>
    }

    /// The most frames kept (a movie being written has a few in flight).
    static let limit = 8
    private let frames = Mutex<[Frame]>([])

    /// A kept frame of `width` × `height`, or a new one.
    func take(width: Int, height: Int) throws(CodecError) -> UnsafeMutablePointer<AVFrame> {
        let kept = frames.withLock { frames in
            frames.firstIndex { Int($0.pointer.pointee.width) == width && Int($0.pointer.pointee.height) == height }
                .map { frames.remove(at: $0).pointer }
        }
        if let kept { return kept }
        try FFmpeg.prepare()
        guard let frame = av.av_frame_alloc() else { throw .io(path: "video frame", reason: "out of memory") }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.colorspace = AVCOL_SPC_BT709
        guard av.av_frame_get_buffer(frame, 0) >= 0 else {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av.av_frame_free(&f)
            throw .io(path: "video frame", reason: "out of memory for a \(width)×\(height) picture")
        }
        return frame
    }

    /// Keeps `frame` when nothing else refers to its memory and there is room; frees it otherwise.
    func give(_ frame: UnsafeMutablePointer<AVFrame>) {
        let kept =
            av.av_frame_is_writable(frame) > 0
            && frames.withLock { frames in
                guard frames.count < Self.limit else { return false }
                frames.append(Frame(pointer: frame))
                return true
            }
        if !kept {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av.av_frame_free(&f)
        }
    }
}
