public import LuxPixels

extension HEIF {
    /// Encodes pixels as a HEIC: 512 × 512 HEVC grid tiles (BT.601 full-range Y′CbCr 4:2:0, 8 or 10 bits), the ICC
    /// profile of the output colour space, Exif with orientation 1 and XMP, a thumbnail and any auxiliary images.
    ///
    /// The pixels are first colour-matched into ``EncodingOptions/colorSpace`` (or their own space; sRGB with
    /// ``EncodingOptions/optimizesColorForSharing``), written with the sRGB curve when that space is linear or
    /// extended. ``EncodingOptions/quality`` q sets x265's constant rate factor to 50 × (1 − q), libheif's mapping,
    /// so a HEIC written at quality 0.5 matches `heif-enc -q 50`. ``EncodingOptions/sampleType`` picks 8 bits
    /// (`.uint8`) or 10 (`.uint10`); `.automatic` writes 10 bits for 16-bit and floating-point buffers. Alpha is
    /// dropped.
    ///
    /// - Parameters:
    ///   - thumbnail: The thumbnail to store (reduced to fit 320 pixels); `nil` stores one reduced from the image when
    ///     ``EncodingOptions/embedsThumbnail`` is on and the image is larger.
    ///   - auxiliaryImages: Gain maps, depth maps and other auxiliary images to store with their types.
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers, sizes beyond 131 072 pixels and other sample
    ///   types; ``CodecError/library(name:message:)`` when x265 fails.
    public static func encode(
        _ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), thumbnail: PixelBuffer? = nil,
        auxiliaryImages: [AuxiliaryImage] = [], options: EncodingOptions = .default
    ) throws(CodecError) -> [UInt8] {
        let encoder = try HEIFStreamEncoder(
            width: pixels.width, height: pixels.height, pixelFormat: pixels.format, colorSpace: pixels.colorSpace,
            metadata: metadata, options: options)
        encoder.thumbnail = thumbnail
        encoder.auxiliaryImages = auxiliaryImages
        // Bands of a tile row keep the colour conversion's working copy small.
        var y = 0
        while y < pixels.height {
            let rows = min(HEIFGridEncoder.tileSide, pixels.height - y)
            let band = (try? pixels.view(x: 0, y: y, width: pixels.width, height: rows)) ?? pixels
            try encoder.append(band, colorSpace: pixels.colorSpace)
            y += rows
        }
        return try encoder.finish()
    }
}
