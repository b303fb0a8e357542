internal import CWebP

/// The structure of a WebP file as libwebpdemux parses it: the canvas, the frames, and the ICC, Exif and XMP chunks.
///
/// The demuxer refers to the bytes it was made from, which must outlive it.
final class WebPContainer {
    /// The parsed file (owned: deleted with the container).
    let demuxer: OpaquePointer
    /// The file's bytes.
    let data: UnsafeRawBufferPointer
    /// What the errors call the file ("WebP image NAME").
    let what: String
    /// The canvas size.
    let width: Int
    let height: Int
    /// The number of frames (1 for a still image).
    let frameCount: Int
    /// Whether the file is an animation (ANIM/ANMF chunks).
    let isAnimated: Bool

    /// Whether `raw` starts a WebP file (a RIFF container of form type `WEBP`).
    static func isWebP(_ raw: UnsafeRawBufferPointer) -> Bool {
        raw.count >= 12 && raw[0..<4].elementsEqual("RIFF".utf8) && raw[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Parses the container.
    ///
    /// - Throws: ``CodecError/truncated(what:offset:)`` when the data ends inside the file,
    ///   ``CodecError/malformed(what:offset:reason:)`` when the chunks are invalid.
    init(_ raw: UnsafeRawBufferPointer, name: String?) throws(CodecError) {
        what = "WebP image" + (name.map { " \($0)" } ?? "")
        guard Self.isWebP(raw), let base = raw.baseAddress else {
            throw .malformed(what: what, offset: 0, reason: "no RIFF/WEBP signature")
        }
        data = raw
        var bytes = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: raw.count)
        var state = WEBP_DEMUX_PARSE_ERROR
        guard let parsed = WebPDemuxInternal(&bytes, 0, &state, Int32(WEBP_DEMUX_ABI_VERSION)) else {
            if state == WEBP_DEMUX_PARSED_HEADER || state == WEBP_DEMUX_PARSING_HEADER {
                throw .truncated(what: "\(what) (its chunks end early)", offset: raw.count)
            }
            throw .malformed(what: what, offset: 0, reason: "libwebpdemux cannot parse the RIFF chunks")
        }
        demuxer = parsed
        width = Int(WebPDemuxGetI(parsed, WEBP_FF_CANVAS_WIDTH))
        height = Int(WebPDemuxGetI(parsed, WEBP_FF_CANVAS_HEIGHT))
        frameCount = Int(WebPDemuxGetI(parsed, WEBP_FF_FRAME_COUNT))
        isAnimated = WebPDemuxGetI(parsed, WEBP_FF_FORMAT_FLAGS) & UInt32(ANIMATION_FLAG.rawValue) != 0
        guard frameCount > 0 else {
            throw .missingPixelData(what: what, reason: "the file holds no frame")
        }
    }

    deinit { WebPDemuxDelete(demuxer) }

    /// The payload of the first chunk with the four-character code `fourCC` (`ICCP`, `EXIF`, `XMP `), if any.
    func chunk(_ fourCC: String) -> [UInt8]? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let bytes = iterator.chunk.bytes else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: iterator.chunk.size))
    }

    /// The metadata chunks: ICC profile, Exif (with or without the JPEG-style `Exif\0\0` prefix some writers add)
    /// and XMP.
    var metadata: ImageMetadata {
        var m = ImageMetadata()
        m.iccProfile = chunk("ICCP")
        if var exif = chunk("EXIF") {
            if exif.starts(with: Array("Exif\0\0".utf8)) { exif.removeFirst(6) }
            if let parsed = try? EXIF(tiffBytes: exif) { m.exif = parsed }
        }
        m.xmp = chunk("XMP ")
        return m
    }

    /// The bitstream features of frame `index` (0-based): size, alpha and lossy or lossless coding.
    func features(ofFrame index: Int) throws(CodecError) -> (bitstream: WebPData, features: WebPBitstreamFeatures) {
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, Int32(index + 1), &iterator) != 0 else {
            throw .malformed(what: what, offset: 0, reason: "frame \(index) cannot be read")
        }
        defer { WebPDemuxReleaseIterator(&iterator) }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeaturesInternal(
            iterator.fragment.bytes, iterator.fragment.size, &features, Int32(WEBP_DECODER_ABI_VERSION))
        try check(status, "the frame header")
        return (iterator.fragment, features)
    }

    /// Throws the error a libwebp status stands for.
    func check(_ status: VP8StatusCode, _ part: String) throws(CodecError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw .truncated(what: "\(what): \(part)", offset: data.count)
        case VP8_STATUS_OUT_OF_MEMORY: throw .library(name: "libwebp", message: "out of memory decoding \(what)")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            throw .unsupported(what: "\(what): \(part)", reason: "libwebp does not support a feature it uses")
        default: throw .malformed(what: "\(what): \(part)", offset: 0, reason: "libwebp status \(status.rawValue)")
        }
    }
}
