import LuxColor
import LuxPixels

/// Shared preparation for writers of integer samples (PNG, TIFF): colour matching into the output space and
/// conversion to the output format.
enum IntegerEncoding {
    /// The pixels colour-matched and converted to `format`, with the colour space they are now in.
    static func prepare(_ pixels: PixelBuffer, format: PixelFormat, options: EncodingOptions) throws(CodecError)
        -> (PixelBuffer, ColorSpace?)
    {
        var buffer = pixels
        let target = outputSpace(for: buffer.colorSpace, format: format, options: options)
        if let source = buffer.colorSpace, let t = target,
            !source.isColorimetricallyEqual(to: t) || (source.isExtendedRange && !format.isFloatingPoint)
        {
            let working =
                buffer.format.isFloatingPoint ? buffer : buffer.converted(to: .rgbaFloat, threads: options.threads)
            do {
                buffer = try working.matchingColors(to: t, threads: options.threads)
            } catch {
                throw .invalidArgument("cannot convert the pixels to \(t.name): \(error)")
            }
        }
        if buffer.format != format { buffer = buffer.converted(to: format, threads: options.threads) }
        buffer.colorSpace = target
        return (buffer, target)
    }

    /// The colour space pixels in `space` are written in as `format`.
    static func outputSpace(for space: ColorSpace?, format: PixelFormat, options: EncodingOptions) -> ColorSpace? {
        var target = options.colorSpace ?? space
        if options.optimizesColorForSharing, format.channelCount != 1 { target = .sRGB }
        if let t = target, !format.isFloatingPoint { target = ColorProfiles.integerEncodingSpace(for: t) }
        return target
    }

    /// Whether an RGBA buffer's alpha should be written under `policy`.
    static func writesAlpha(_ buffer: PixelBuffer, policy: AlphaPolicy) -> Bool {
        guard buffer.format.hasAlpha else { return false }
        switch policy {
        case .keep: return true
        case .discard: return false
        case .automatic:
            let w = buffer.width
            return buffer.withUnsafePlane { plane in
                for y in 0..<plane.height {
                    switch buffer.format {
                    case .rgba8, .bgra8:
                        let r = plane.row(y, as: UInt8.self)
                        for x in 0..<w where r[4 * x + 3] != 255 { return true }
                    case .rgba16:
                        let r = plane.row(y, as: UInt16.self)
                        for x in 0..<w where r[4 * x + 3] != 65535 { return true }
                    case .rgbaHalf:
                        let r = plane.row(y, as: Float16.self)
                        for x in 0..<w where r[4 * x + 3] != 1 { return true }
                    case .rgbaFloat:
                        let r = plane.row(y, as: Float.self)
                        for x in 0..<w where r[4 * x + 3] != 1 { return true }
                    default: return false
                    }
                }
                return false
            }
        }
    }
}
