internal import CHEIF
import LuxColor
public import LuxPixels

/// AVIF writing through libheif and its AV1 encoder (aom).
///
/// AVIF files are read like HEIC ones (``HEIF/decode(_:options:)``, or ``ImageFile`` with format detection): the same
/// libheif code paths, with AV1 decoded by dav1d or aom. Writing encodes one 8-bit image, 4:2:0 at
/// ``EncodingOptions/quality`` (`heif-enc -A -q` 100 × quality), with alpha only when the pixels have some that is
/// not opaque, an ICC profile unless the values are sRGB (the format's default), Exif and XMP. An Exif orientation
/// is applied to the pixels, since HEIF readers ignore it (the Exif written says `.up`).
///
/// ```swift
/// let avif = try AVIF.encode(photo.pixels, metadata: photo.metadata, options: .init(quality: 0.6))
/// ```
public enum AVIF {
    /// The largest width or height this encoder writes (AV1's level limits aside, libheif's default limit).
    public static let maximumDimension = 32768

    /// Encodes pixels as an AVIF file.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers or oversized images;
    ///   ``CodecError/library(name:message:)`` or ``CodecError/unsupported(what:reason:)`` when libheif has no AV1
    ///   encoder or fails.
    public static func encode(
        _ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default
    ) throws(CodecError) -> [UInt8] {
        var upright = pixels
        var metadata = metadata
        if metadata.orientation != .up {
            upright = pixels.applying(metadata.orientation)
            metadata.orientation = .up
        }
        let prepared = try RGBEncoding.prepare(
            upright, format: "AVIF", maximumDimension: maximumDimension, options: options)
        let icc = RGBEncoding.profile(for: prepared.colorSpace, metadata: metadata, options: options)
        HEIFLibrary.initialize()
        guard let context = heif_context_alloc() else { throw .library(name: "libheif", message: "out of memory") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try heifCall("the AV1 encoder") { heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder) }
        guard let encoder else { throw .unsupported(what: "AVIF writing", reason: "libheif has no AV1 encoder") }
        defer { heif_encoder_release(encoder) }
        let quality = Int32(max(0, min(100, (options.quality * 100).rounded())))
        try heifCall("the AV1 encoder's quality") { heif_encoder_set_lossy_quality(encoder, quality) }
        let image = try heifImage(prepared.pixels, alpha: prepared.hasAlpha, icc: icc)
        defer { heif_image_release(image) }
        var handle: OpaquePointer?
        try heifCall("AVIF encoding") { heif_context_encode_image(context, image, encoder, nil, &handle) }
        defer { heif_image_handle_release(handle) }
        if !metadata.exif.isEmpty {
            let exif = metadata.exif.tiffBytes(bigEndian: false)
            try heifCall("the AVIF Exif") { heif_context_add_exif_metadata(context, handle, exif, Int32(exif.count)) }
        }
        if let xmp = metadata.xmp {
            try heifCall("the AVIF XMP") { heif_context_add_XMP_metadata(context, handle, xmp, Int32(xmp.count)) }
        }
        return try write(context)
    }

    /// A libheif image of `.rgba8` pixels (interleaved RGB or RGBA) with its ICC profile.
    private static func heifImage(_ pixels: PixelBuffer, alpha: Bool, icc: [UInt8]?) throws(CodecError)
        -> OpaquePointer
    {
        let (w, h) = (Int32(pixels.width), Int32(pixels.height))
        var image: OpaquePointer?
        let chroma = alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try heifCall("an AVIF image") { heif_image_create(w, h, heif_colorspace_RGB, chroma, &image) }
        guard let image else { throw .library(name: "libheif", message: "out of memory") }
        do throws(CodecError) {
            try heifCall("an AVIF image plane") { heif_image_add_plane(image, heif_channel_interleaved, w, h, 8) }
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                throw .library(name: "libheif", message: "no image plane")
            }
            let channels = alpha ? 4 : 3
            pixels.withUnsafePlane { src in
                for y in 0..<src.height {
                    let s = src.row(y, as: UInt8.self)
                    let d = plane + y * Int(stride)
                    if alpha {
                        d.update(from: s, count: 4 * src.width)
                    } else {
                        for x in 0..<src.width {
                            for c in 0..<channels { d[3 * x + c] = s[4 * x + c] }
                        }
                    }
                }
            }
            if let icc {
                try heifCall("the AVIF colour profile") {
                    heif_image_set_raw_color_profile(image, "prof", icc, icc.count)
                }
            }
        } catch {
            heif_image_release(image)
            throw error
        }
        return image
    }

    /// The bytes of the encoded file.
    private static func write(_ context: OpaquePointer) throws(CodecError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, data, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data { sink.bytes += UnsafeRawBufferPointer(start: data, count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        try withExtendedLifetime(sink) { () throws(CodecError) in
            try heifCall("writing the AVIF file") {
                heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
            }
        }
        return sink.bytes
    }
}
