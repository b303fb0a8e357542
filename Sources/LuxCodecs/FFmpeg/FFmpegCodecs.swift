internal import CAVCodec
internal import CAVFormat
internal import CLuxMediaShims

extension FFmpeg {
    /// Whether FFmpeg decodes the video codec a QuickTime sample entry names (`avc1`, `hvc1`, `ap4h`, …).
    static func decodesVideo(fourCC: String) -> Bool {
        isAvailable && decoder(fourCC: fourCC, tags: av.avformat_get_mov_video_tags())
    }

    /// Whether FFmpeg decodes the audio codec a QuickTime sample entry names (`mp4a`, `alac`, `sowt`, …).
    static func decodesAudio(fourCC: String) -> Bool {
        isAvailable && decoder(fourCC: fourCC, tags: av.avformat_get_mov_audio_tags())
    }

    private static func decoder(fourCC: String, tags: OpaquePointer?) -> Bool {
        let bytes = Array(fourCC.utf8)
        guard bytes.count == 4 else { return false }
        // MKTAG: the first character in the lowest byte.
        let tag = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        let list: [OpaquePointer?] = [tags, nil]  // a NULL-terminated list of tables
        let id = av.av_codec_get_id(list, tag)
        return id != AV_CODEC_ID_NONE && av.avcodec_find_decoder(id) != nil
    }
}
