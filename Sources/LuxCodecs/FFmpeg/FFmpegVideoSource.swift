internal import CAVCodec
internal import CAVUtil
internal import CLuxMediaShims
internal import CSWScale
import FoundationEssentials
import LuxColor
import LuxPixels

/// Decodes a video track through FFmpeg and converts its pictures to RGB with swscale, using the matrix, range and
/// colour primaries the stream declares.
final class FFmpegVideoSource {
    let decoder: StreamDecoder
    private let frame: UnsafeMutablePointer<AVFrame>
    private var scaler: OpaquePointer?
    private var scalerKey: [Int64] = []

    init(data: Data, name: String, track: MovieTrack, options: VideoDecodingOptions) throws(CodecError) {
        let input = try MediaInput(data: data, name: name, timeLimit: options.timeLimit)
        decoder = try StreamDecoder(
            input: input, track: track, what: "\(track.codecName) video", threads: options.threads,
            maxPixels: options.limits.maxPixelCount)
        guard let frame = av.av_frame_alloc() else { throw .io(path: name, reason: "out of memory for a video frame") }
        self.frame = frame
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av.av_frame_free(&f)
        av.sws_freeContext(scaler)
    }

    /// Decodes the next picture; returns its presentation time and duration in stream ticks, or `nil` at the end.
    func next() throws(CodecError) -> (time: MediaTime, duration: MediaTime)? {
        av.av_frame_unref(frame)
        guard try decoder.decode(into: frame) else { return nil }
        let pts = frame.pointee.best_effort_timestamp
        return (decoder.time(pts == Int64.min ? frame.pointee.pts : pts), decoder.time(frame.pointee.pkt_duration))
    }

    /// The current picture's size.
    var size: (width: Int, height: Int) { (Int(frame.pointee.width), Int(frame.pointee.height)) }

    /// What the current picture's pixel format is: bit depth, chroma subsampling (as shifts), whether it is Y′CbCr in
    /// three planes.
    private var layout: (depth: Int, chromaShift: (Int, Int), planarYCbCr: Bool)? {
        guard let d = av.av_pix_fmt_desc_get(frame.pixelFormat)?.pointee else { return nil }
        let planar =
            d.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 && d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0
            && d.nb_components >= 3 && d.comp.0.plane == 0 && d.comp.1.plane == 1 && d.comp.2.plane == 2
        return (Int(d.comp.0.depth), (Int(d.log2_chroma_w), Int(d.log2_chroma_h)), planar)
    }

    /// The Y′CbCr matrix the current picture declares.
    var matrix: YCbCrMatrix {
        switch frame.pointee.colorspace {
        case AVCOL_SPC_BT709: .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: .bt2020
        case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_RESERVED: frame.pointee.height > 576 ? .bt709 : .bt601
        default: .bt601
        }
    }

    /// Whether the current picture's codes span the full range.
    var isFullRange: Bool {
        frame.pointee.color_range == AVCOL_RANGE_JPEG || Self.fullRangeFormats[frame.pixelFormat] != nil
    }

    /// The colour space of the current picture's R′G′B′ (BT.709 primaries are read as sRGB, as Lux writes them).
    var colorSpace: ColorSpace {
        switch frame.pointee.color_primaries {
        case AVCOL_PRI_SMPTE432: .displayP3
        case AVCOL_PRI_BT2020: .itur2020
        default: .sRGB
        }
    }

    /// The legacy full-range ("J") formats and the plain formats swscale is given instead (with the range set).
    private static let fullRangeFormats: [AVPixelFormat: AVPixelFormat] = [
        AV_PIX_FMT_YUVJ420P: AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ422P: AV_PIX_FMT_YUV422P,
        AV_PIX_FMT_YUVJ444P: AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ440P: AV_PIX_FMT_YUV440P,
    ]

    /// Converts the current picture to RGB into `buffer` (`.rgba8` for 8-bit video, `.rgba16` beyond), reduced by
    /// 1/`reduction` (rounding up), reusing `buffer`'s memory when it has the size and format and is not shared.
    func convert(into buffer: inout PixelBuffer, reduction: Int) throws(CodecError) {
        let (w, h) = size
        let deep = (layout?.depth ?? 8) > 8
        let format: PixelFormat = deep ? .rgba16 : .rgba8
        let dw = (w + reduction - 1) / reduction
        let dh = (h + reduction - 1) / reduction
        if buffer.width != dw || buffer.height != dh || buffer.format != format || !buffer.isUniquelyReferenced {
            buffer = PixelBuffer(width: dw, height: dh, format: format)
        }
        let source = Self.fullRangeFormats[frame.pixelFormat] ?? frame.pixelFormat
        if reduction == 1, source == AV_PIX_FMT_YUV420P, let matrix = kernelMatrix {
            try convert420(into: &buffer, matrix: matrix)
            return
        }
        let coefficients: Int32 =
            switch frame.pointee.colorspace {
            case AVCOL_SPC_BT709: SWS_CS_ITU709
            case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
            case AVCOL_SPC_FCC: SWS_CS_FCC
            case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
            default: matrix == .bt709 ? SWS_CS_ITU709 : SWS_CS_ITU601
            }
        let full: Int32 = isFullRange ? 1 : 0
        let key: [Int64] = [
            Int64(source.rawValue), Int64(w), Int64(h), Int64(dw), Int64(dh), Int64(coefficients), Int64(full),
            deep ? 1 : 0,
        ]
        if key != scalerKey {
            av.sws_freeContext(scaler)
            let flags = (reduction > 1 ? SWS_AREA : SWS_BILINEAR) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
            scaler = av.sws_getContext(
                Int32(w), Int32(h), source, Int32(dw), Int32(dh), deep ? AV_PIX_FMT_RGBA64LE : AV_PIX_FMT_RGBA,
                flags, nil, nil, nil)
            scalerKey = key
            guard let scaler else {
                scalerKey = []
                throw .unsupported(
                    what: "\(decoder.what) pixel format \(Self.name(of: frame.pixelFormat)) in \(decoder.input.name)",
                    reason: "swscale cannot convert it to RGB")
            }
            let table = av.sws_getCoefficients(coefficients)
            _ = av.sws_setColorspaceDetails(
                scaler, table, full, av.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        let (pointers, strides) = frame.planes
        let rows = buffer.withUnsafeMutablePlane(0) { plane in
            var destination: [UnsafeMutablePointer<UInt8>?] = [
                plane.baseAddress.assumingMemoryBound(to: UInt8.self), nil, nil, nil,
            ]
            var destinationStrides: [Int32] = [Int32(plane.bytesPerRow), 0, 0, 0]
            return av.sws_scale(scaler, pointers, strides, 0, Int32(h), &destination, &destinationStrides)
        }
        guard rows == Int32(dh) else {
            throw .malformed(
                what: "\(decoder.what) frame in \(decoder.input.name)", offset: 0,
                reason: "swscale converted \(rows) of \(dh) rows")
        }
        buffer.colorSpace = colorSpace
    }

    /// The R′G′B′ equations of the current picture for `lux_yuv420_rows_to_rgba8` ({ys, yo, rv, gu, gv, bu}, codes in
    /// 0…255), or `nil` for a matrix other than BT.601, BT.709 and BT.2020 (swscale converts those).
    private var kernelMatrix: [Float]? {
        switch frame.pointee.colorspace {
        case AVCOL_SPC_BT709, AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_UNSPECIFIED,
            AVCOL_SPC_RESERVED:
            break
        default: return nil
        }
        let (kr, kb) = matrix.coefficients
        let kg = 1 - kr - kb
        let full = isFullRange
        let chroma: Float = full ? 1 : 255 / 224
        return [
            full ? 1 : 255 / 219, full ? 0 : 16, 2 * (1 - kr) * chroma, 2 * (1 - kb) * kb / kg * chroma,
            2 * (1 - kr) * kr / kg * chroma, 2 * (1 - kb) * chroma,
        ]
    }

    /// Converts the current 8-bit 4:2:0 picture to `.rgba8` at full size with LuxCodecs' kernel (chroma interpolated
    /// linearly at the siting the stream declares).
    private func convert420(into buffer: inout PixelBuffer, matrix: [Float]) throws(CodecError) {
        let (w, h) = size
        guard let luma = frame.plane(0), let cb = frame.plane(1), let cr = frame.plane(2) else {
            throw .malformed(
                what: "\(decoder.what) frame in \(decoder.input.name)", offset: 0, reason: "a plane is missing")
        }
        let centred: Int32 = frame.pointee.chroma_location == AVCHROMA_LOC_CENTER ? 1 : 0
        let status = buffer.withUnsafeMutablePlane(0) { plane in
            lux_yuv420_rows_to_rgba8(
                luma, frame.bytesPerRow(0), cb, frame.bytesPerRow(1), cr, frame.bytesPerRow(2), w, h, matrix, centred,
                plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow, 0, h)
        }
        guard status == 0 else { throw .io(path: decoder.input.name, reason: "out of memory converting a frame") }
        buffer.colorSpace = colorSpace
    }

    /// The current picture's Y′CbCr planes (`nil` for a picture that is not planar Y′CbCr).
    func planes() -> YCbCrPlanes? {
        guard let layout, layout.planarYCbCr else { return nil }
        let (w, h) = size
        let cw = (w + (1 << layout.chromaShift.0) - 1) >> layout.chromaShift.0
        let ch = (h + (1 << layout.chromaShift.1) - 1) >> layout.chromaShift.1
        func codes(_ plane: Int, _ pw: Int, _ ph: Int) -> [UInt16] {
            guard let base = frame.plane(plane) else { return [] }
            let stride = frame.bytesPerRow(plane)
            var out = [UInt16](repeating: 0, count: pw * ph)
            for y in 0..<ph {
                let row = base + y * stride
                if layout.depth > 8 {
                    let r = UnsafeRawPointer(row)
                    for x in 0..<pw {
                        out[y * pw + x] = UInt16(littleEndian: r.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                    }
                } else {
                    for x in 0..<pw { out[y * pw + x] = UInt16(row[x]) }
                }
            }
            return out
        }
        return YCbCrPlanes(
            width: w, height: h, chromaWidth: cw, chromaHeight: ch, bitDepth: layout.depth, matrix: matrix,
            isFullRange: isFullRange, luma: codes(0, w, h), cb: codes(1, cw, ch), cr: codes(2, cw, ch))
    }

    static func name(of format: AVPixelFormat) -> String {
        av.av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
    }
}
