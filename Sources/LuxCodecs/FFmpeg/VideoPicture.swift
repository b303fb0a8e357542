internal import CAVCodec
internal import CAVUtil
internal import CLuxMediaShims
internal import CSWScale
import LuxPixels

/// A picture in the encoder's Y′CbCr (8-bit 4:2:0, video range, BT.709 matrix), converted from RGB by swscale.
///
/// Immutable once made, so it may cross threads: frames are converted in parallel and encoded in order.
final class VideoPicture: @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>

    /// Converts `pixels` (`.rgba8`, already in the track's colour space) into a new picture.
    ///
    /// - Throws: ``CodecError/io(path:reason:)`` when memory runs out.
    init(converting pixels: PixelBuffer) throws(CodecError) {
        precondition(pixels.format == .rgba8, "pictures are converted from .rgba8 pixels")
        guard let frame = av.av_frame_alloc() else { throw .io(path: "video frame", reason: "out of memory") }
        self.frame = frame
        frame.pointee.width = Int32(pixels.width)
        frame.pointee.height = Int32(pixels.height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.colorspace = AVCOL_SPC_BT709
        guard av.av_frame_get_buffer(frame, 0) >= 0,
            let scaler = av.sws_getContext(
                Int32(pixels.width), Int32(pixels.height), AV_PIX_FMT_RGBA, Int32(pixels.width),
                Int32(pixels.height), AV_PIX_FMT_YUV420P, SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nil,
                nil, nil)
        else { throw .io(path: "video frame", reason: "out of memory for a \(pixels.width)×\(pixels.height) picture") }
        defer { av.sws_freeContext(scaler) }
        let bt709 = av.sws_getCoefficients(SWS_CS_ITU709)
        av.sws_setColorspaceDetails(scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16)
        let (destination, strides) = frame.planes
        pixels.withUnsafePlane(0) { plane in
            let source: [UnsafePointer<UInt8>?] = [
                plane.baseAddress.assumingMemoryBound(to: UInt8.self), nil, nil, nil,
            ]
            let sourceStrides: [Int32] = [Int32(plane.bytesPerRow), 0, 0, 0]
            let mutable = destination.map { UnsafeMutablePointer(mutating: $0) }
            _ = av.sws_scale(scaler, source, sourceStrides, 0, Int32(pixels.height), mutable, strides)
        }
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av.av_frame_free(&f)
    }

    /// The picture's size in bytes (its three planes).
    var byteCount: Int { Int(frame.pointee.width) * Int(frame.pointee.height) * 3 / 2 }
}
