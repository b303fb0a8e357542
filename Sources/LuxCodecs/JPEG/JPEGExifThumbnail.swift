import LuxPixels

/// A JPEG's Exif thumbnail: a small baseline JPEG (no JFIF, Exif or ICC segment of its own) in IFD1 of the Exif block,
/// which must fit with the rest of the Exif in one 64 KB APP1 segment.
enum JPEGExifThumbnail {
    /// The long side of a thumbnail reduced from the image (the Exif standard's 160 × 120).
    static let side = 160

    /// The largest APP1 payload a JPEG segment holds (its length field counts itself).
    static let maxPayload = 65533

    /// Qualities tried in turn, at each size, until the Exif block fits.
    private static let qualities = [0.9, 0.8, 0.7, 0.6, 0.5]

    /// The APP1 payload (`Exif\0\0` and the TIFF structure) of `exif` with `thumbnail` (`.rgba8` in the image's
    /// output colour space) in IFD1: re-encoded at lower qualities, then at half the size, until it fits in
    /// ``maxPayload``; without a thumbnail when even 16 pixels do not fit.
    static func exifPayload(_ exif: EXIF, thumbnail: PixelBuffer) throws(CodecError) -> [UInt8] {
        var picture = thumbnail
        while max(picture.width, picture.height) >= 16 {
            for quality in qualities {
                let jpeg = try bareJPEG(picture, quality: quality)
                let payload = JPEGHeader.exifSignature + exif.tiffBytes(bigEndian: true, thumbnail: jpeg)
                if payload.count <= maxPayload { return payload }
            }
            var half = ThumbnailReduction(
                width: picture.width, height: picture.height, side: max(picture.width, picture.height) / 2)
            half.add(picture)
            picture = half.result(format: .rgba8)
        }
        return JPEGHeader.exifSignature + exif.tiffBytes(bigEndian: true)
    }

    /// `pixels` (`.rgba8`) as a baseline 4:2:0 JPEG with no marker segments beyond those of the picture itself.
    private static func bareJPEG(_ pixels: PixelBuffer, quality: Double) throws(CodecError) -> [UInt8] {
        var bare = pixels
        bare.colorSpace = nil
        let encoder = try JPEGStreamEncoder(
            width: bare.width, height: bare.height, pixelFormat: bare.format, colorSpace: nil,
            metadata: ImageMetadata(), options: EncodingOptions(quality: quality, threads: 1), bare: true)
        try encoder.append(bare)
        return try encoder.finish()
    }

    /// `jpeg` with its Exif APP1 segment (or, when it has none, its JFIF APP0 segment) replaced by `payload`.
    static func replacingExif(in jpeg: [UInt8], with payload: [UInt8]) throws(CodecError) -> [UInt8] {
        var replaced: (start: Int, end: Int)?
        try withBytes(of: jpeg) { raw throws(CodecError) in
            try JPEGSegments.scan(raw, what: "JPEG") { segment throws(CodecError) in
                guard replaced == nil else { return }
                let isExif =
                    segment.marker == 0xE1 && segment.payload.starts(with: JPEGHeader.exifSignature)
                if isExif || segment.marker == 0xE0 {
                    replaced = (segment.markerOffset, segment.payloadOffset + segment.payload.count)
                }
            }
        }
        let (start, end) = replaced ?? (2, 2)
        let length = UInt16(payload.count + 2)
        return Array(jpeg[..<start]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            + Array(jpeg[end...])
    }
}
