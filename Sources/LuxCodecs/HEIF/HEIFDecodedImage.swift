internal import CHEIF
import Dispatch
import LuxColor
import LuxPixels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A HEIF image decoded by libheif into planes: R, G, B (and alpha) at 4:4:4, or one gray plane.
///
/// libheif 1.15 converts every coded image to planar RGB 4:4:4 while it decodes it (grid tiles are converted tile by
/// tile and pasted into the RGB canvas), with the matrix and range of the `nclx` description or its defaults
/// (BT.601, full range) and nearest-neighbour chroma upsampling. Asking it for planar RGB is therefore the one
/// request that costs no further conversion and gives exactly the values `heif-convert` writes. Lux keeps these
/// planes (3 bytes per pixel at 8 bits) and interleaves, widens and — for PQ and HLG — linearises only the rectangles
/// a render asks for (``read(x:y:width:height:into:)``), so no interleaved RGBA copy of the whole image is made.
final class HEIFDecodedImage: @unchecked Sendable {
    // @unchecked: the planes are written once by libheif before init returns and only read afterwards.
    private let image: OpaquePointer
    let width: Int
    let height: Int
    /// Bits per sample of the planes (8…16; more than 8 are stored in 16-bit words).
    let bitDepth: Int
    /// Whether the planes are R, G, B (otherwise one gray plane).
    let isColor: Bool
    /// Whether there is an alpha plane.
    let hasAlpha: Bool
    let isPremultiplied: Bool
    /// How the values relate to light (PQ and HLG are linearised on reading).
    let transfer: HEIFTransfer
    /// The pixel format regions come out in.
    let pixelFormat: PixelFormat
    private let planes: [(base: UnsafePointer<UInt8>, stride: Int)]
    private let alphaPlane: (base: UnsafePointer<UInt8>, stride: Int)?
    /// Samples of `bitDepth` bits widened to 16 bits, or linearised for PQ/HLG, indexed by code value.
    private let table: [Float]

    /// Decodes `handle` (its transforms `irot`, `imir` and `clap` applied by libheif, once).
    ///
    /// - Parameters:
    ///   - gray: Decode to one gray plane (auxiliary images: depth, gain maps, mattes).
    ///   - transfer: The transfer of the decoded values.
    /// - Throws: ``CodecError/limitExceeded(what:value:limit:)`` before decoding when the image or its memory passes
    ///   `options.limits`; libheif's decoding errors.
    init(_ handle: HEIFImageHandle, gray: Bool, transfer: HEIFTransfer, options: DecodingOptions) throws(CodecError) {
        let what = handle.role.name
        // An image without a coded bit depth has no coded picture behind it (a grid whose tiles are grids, or itself):
        // libheif 1.15 would recurse into it, a thread per level, until thread creation fails and aborts the process.
        guard heif_image_handle_get_luma_bits_per_pixel(handle.handle) > 0 else {
            throw .malformed(
                what: "HEIF \(what)", offset: 0, reason: "it has no coded bit depth (no coded image behind it)")
        }
        let bits = handle.bitDepth
        let sampleBytes = bits > 8 ? 2 : 1
        let channels = gray ? 1 : (handle.hasAlpha ? 4 : 3)
        try options.limits.check(
            width: handle.width, height: handle.height, bytesPerPixel: channels * sampleBytes, what: what)
        // libheif's planes, and the coded Y′CbCr picture they are converted from.
        let (planar, overflow) = (handle.width * handle.height).multipliedReportingOverflow(
            by: channels * sampleBytes + 2 * sampleBytes)
        try options.reserve(overflow ? .max : planar, for: "\(what) planes")

        let decoding = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(decoding) }
        decoding?.pointee.ignore_transformations = 0
        decoding?.pointee.convert_hdr_to_8bit = 0
        var out: OpaquePointer?
        let colorspace = gray ? heif_colorspace_monochrome : heif_colorspace_RGB
        let chroma = gray ? heif_chroma_monochrome : heif_chroma_444
        var error = heif_decode_image(handle.handle, &out, colorspace, chroma, decoding)
        // libheif 1.15 assembles every grid in RGB and cannot turn that into gray: read a gray grid's R plane.
        var fromRGB = false
        if gray, error.code == heif_error_Unsupported_feature,
            error.subcode == heif_suberror_Unsupported_color_conversion
        {
            error = heif_decode_image(handle.handle, &out, heif_colorspace_RGB, heif_chroma_444, decoding)
            fromRGB = true
        }
        try heifCall(what, fileSize: handle.context.fileSize, limit: options.limits.maxDimension) { error }
        guard let out else { throw .library(name: "libheif", message: "\(what): no image was decoded") }
        image = out
        // libheif 1.15 returns the coded picture, which may be larger than the image's `ispe` (Sony's thumbnails are
        // coded at 320 × 256 for 320 × 212): the image is its top-left part.
        let first = gray && !fromRGB ? heif_channel_Y : heif_channel_R
        let codedWidth = Int(heif_image_get_width(out, first))
        let codedHeight = Int(heif_image_get_height(out, first))
        width = handle.width > 0 ? min(codedWidth, handle.width) : codedWidth
        height = handle.height > 0 ? min(codedHeight, handle.height) : codedHeight
        bitDepth = Int(heif_image_get_bits_per_pixel_range(out, first))
        isColor = !gray
        self.transfer = gray ? .curve(.linear) : transfer
        var found: [(UnsafePointer<UInt8>, Int)] = []
        for channel in gray ? [first] : [heif_channel_R, heif_channel_G, heif_channel_B] {
            var stride: Int32 = 0
            guard let base = heif_image_get_plane_readonly(out, channel, &stride) else { break }
            found.append((base, Int(stride)))
        }
        planes = found
        var alphaStride: Int32 = 0
        if !gray, let alpha = heif_image_get_plane_readonly(out, heif_channel_Alpha, &alphaStride) {
            alphaPlane = (alpha, Int(alphaStride))
        } else {
            alphaPlane = nil
        }
        hasAlpha = alphaPlane != nil
        isPremultiplied = hasAlpha && heif_image_is_premultiplied_alpha(out) != 0
        let hdr = !gray && transfer.isHDR
        pixelFormat =
            hdr ? .rgbaFloat : gray ? (bitDepth > 8 ? .gray16 : .gray8) : (bitDepth > 8 ? .rgba16 : .rgba8)
        table = Self.table(bitDepth: bitDepth, transfer: hdr ? transfer : .curve(.linear))
        guard planes.count == (gray ? 1 : 3), width > 0, height > 0, (1...16).contains(bitDepth) else {
            heif_image_release(out)
            throw .malformed(what: what, offset: 0, reason: "libheif returned an image without the expected planes")
        }
    }

    deinit { heif_image_release(image) }

    /// The lookup from code value to output value: 16-bit widening (as a Float holding an integer) or linear light.
    private static func table(bitDepth: Int, transfer: HEIFTransfer) -> [Float] {
        guard bitDepth > 8 || transfer.isHDR else { return [] }
        let maximum = (1 << bitDepth) - 1
        return (0...maximum).map { code in
            let e = Double(code) / Double(maximum)
            switch transfer {
            case .pq: return Float(HEIFTransfer.pqToLinear(e))
            case .hlg: return Float(HEIFTransfer.hlgToScene(e))
            case .curve: return Float((code * 65535 + maximum / 2) / maximum)
            }
        }
    }

    /// The planes as an 8-bit RGB picture, when regions would be exactly their values interleaved (8-bit colour, no
    /// alpha, no PQ/HLG linearisation); valid while this image lives.
    var planarRGB8: PlanarRGB8? {
        guard pixelFormat == .rgba8, !hasAlpha, planes.count == 3 else { return nil }
        let p = planes.map { PlanarRGB8.Plane(base: $0.base, stride: $0.stride) }
        return PlanarRGB8(width: width, height: height, red: p[0], green: p[1], blue: p[2])
    }

    /// The most bytes of memory the planes hold.
    var byteCount: Int { width * height * (planes.count + (hasAlpha ? 1 : 0)) * (bitDepth > 8 ? 2 : 1) }

    /// Converts the rectangle at (`x`, `y`) of `w` × `h` pixels into `destination` in ``pixelFormat``.
    ///
    /// The rectangle must lie inside the image (the caller checks it).
    func read(x: Int, y: Int, width w: Int, height h: Int, into destination: MutableRawPlane) {
        for r in 0..<h {
            let row = y + r
            let out = destination.row(r)
            switch pixelFormat {
            case .gray8:
                out.copyMemory(from: planes[0].base + row * planes[0].stride + x, byteCount: w)
            case .gray16:
                widenGray(row, x, w, out.assumingMemoryBound(to: UInt16.self))
            case .rgba8:
                interleave8(row, x, w, out.assumingMemoryBound(to: UInt8.self))
            case .rgba16:
                interleave16(row, x, w, out.assumingMemoryBound(to: UInt16.self))
            default:
                linearize(row, x, w, out.assumingMemoryBound(to: Float.self))
            }
        }
    }

    private func row8(_ plane: Int, _ y: Int, _ x: Int) -> UnsafePointer<UInt8> {
        planes[plane].base + y * planes[plane].stride + x
    }

    private func row16(_ plane: Int, _ y: Int, _ x: Int) -> UnsafePointer<UInt16> {
        UnsafeRawPointer(planes[plane].base + y * planes[plane].stride).assumingMemoryBound(to: UInt16.self) + x
    }

    private func alpha8(_ y: Int, _ x: Int) -> UnsafePointer<UInt8>? {
        alphaPlane.map { $0.base + y * $0.stride + x }
    }

    private func alpha16(_ y: Int, _ x: Int) -> UnsafePointer<UInt16>? {
        alphaPlane.map { UnsafeRawPointer($0.base + y * $0.stride).assumingMemoryBound(to: UInt16.self) + x }
    }

    private func interleave8(_ y: Int, _ x: Int, _ w: Int, _ out: UnsafeMutablePointer<UInt8>) {
        let r = row8(0, y, x)
        let g = row8(1, y, x)
        let b = row8(2, y, x)
        if let a = alpha8(y, x) {
            for i in 0..<w { (out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]) = (r[i], g[i], b[i], a[i]) }
        } else {
            for i in 0..<w { (out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]) = (r[i], g[i], b[i], 255) }
        }
    }

    private func interleave16(_ y: Int, _ x: Int, _ w: Int, _ out: UnsafeMutablePointer<UInt16>) {
        let r = row16(0, y, x)
        let g = row16(1, y, x)
        let b = row16(2, y, x)
        let a = alpha16(y, x)
        let mask = Int((1 << bitDepth) - 1)
        table.withUnsafeBufferPointer { t in
            for i in 0..<w {
                out[4 * i] = UInt16(t[Int(r[i]) & mask])
                out[4 * i + 1] = UInt16(t[Int(g[i]) & mask])
                out[4 * i + 2] = UInt16(t[Int(b[i]) & mask])
                out[4 * i + 3] = a.map { UInt16(t[Int($0[i]) & mask]) } ?? .max
            }
        }
    }

    private func widenGray(_ y: Int, _ x: Int, _ w: Int, _ out: UnsafeMutablePointer<UInt16>) {
        let v = row16(0, y, x)
        let mask = Int((1 << bitDepth) - 1)
        table.withUnsafeBufferPointer { t in
            for i in 0..<w { out[i] = UInt16(t[Int(v[i]) & mask]) }
        }
    }

    /// PQ or HLG values as linear light (1.0 = 203 cd/m²), alpha 0…1.
    private func linearize(_ y: Int, _ x: Int, _ w: Int, _ out: UnsafeMutablePointer<Float>) {
        let mask = Int((1 << bitDepth) - 1)
        let scale = 1 / Float(mask)
        let hlg: Bool = if case .hlg = transfer { true } else { false }
        // BT.2100 HLG OOTF: display light = peak × Ys^(γ − 1) × scene light, Ys the BT.2020 luminance, γ = 1.2.
        let gain = Float(HEIFTransfer.hlgDisplayPeak / HEIFTransfer.referenceWhite)
        table.withUnsafeBufferPointer { t in
            for i in 0..<w {
                var red: Float
                var green: Float
                var blue: Float
                var opacity: Float = 1
                if bitDepth > 8 {
                    let (r, g, b) = (row16(0, y, x), row16(1, y, x), row16(2, y, x))
                    (red, green, blue) = (t[Int(r[i]) & mask], t[Int(g[i]) & mask], t[Int(b[i]) & mask])
                    if let a = alpha16(y, x) { opacity = Float(Int(a[i]) & mask) * scale }
                } else {
                    let (r, g, b) = (row8(0, y, x), row8(1, y, x), row8(2, y, x))
                    (red, green, blue) = (t[Int(r[i])], t[Int(g[i])], t[Int(b[i])])
                    if let a = alpha8(y, x) { opacity = Float(a[i]) * scale }
                }
                if hlg {
                    let ys = max(0.2627 * red + 0.6780 * green + 0.0593 * blue, 1e-6)
                    let k = gain * Float(pow(Double(ys), 0.2))
                    (red, green, blue) = (red * k, green * k, blue * k)
                }
                (out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]) = (red, green, blue, opacity)
            }
        }
    }

    /// The whole image as a pixel buffer in ``pixelFormat``.
    func pixels(colorSpace: ColorSpace?, options: DecodingOptions, what: String) throws(CodecError) -> PixelBuffer {
        try options.reserve(
            PixelBuffer.byteCount(width: width, height: height, format: pixelFormat), for: "\(what) pixels")
        var buffer = PixelBuffer(width: width, height: height, format: pixelFormat, colorSpace: colorSpace)
        buffer.isPremultiplied = isPremultiplied
        let plane = buffer.unsafeSharedMutablePlane()
        let bands = max(1, min(options.threads, height / 64))
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let y0 = band * height / bands
            let y1 = (band + 1) * height / bands
            let part = MutableRawPlane(
                baseAddress: plane.row(y0), bytesPerRow: plane.bytesPerRow, width: width, height: y1 - y0)
            read(x: 0, y: y0, width: width, height: y1 - y0, into: part)
        }
        return buffer
    }
}
