import LuxColor
import LuxPixels

/// Conversion at decode time through an embedded ICC profile that Lux's matrix/TRC engine cannot describe as a
/// ``ColorSpace`` (CMYK, LUT-based RGB and gray): Little CMS builds one ``ICCTransform`` per image and runs it over
/// bands of rows on all threads, and the pixels come out in sRGB (gray: sGray).
enum ProfileConversion {
    /// The validated profile when `bytes` need Little CMS for pixels of `model` (`nil`: Lux's own engine handles
    /// them, there is nothing to convert, or the profile is damaged: a damaged RGB or gray profile is ignored and
    /// the format's default space applies, as before Little CMS was used).
    static func profileNeedingConversion(_ bytes: [UInt8]?, model: ICCProfile.ColorSpaceSignature) -> ICCProfile? {
        guard let bytes, ColorProfiles.colorSpace(fromProfile: bytes) == nil else { return nil }
        let profile: ICCProfile
        do { profile = try ICCProfile(data: bytes) } catch { return nil }
        return profile.dataColorSpace == model ? profile : nil
    }

    /// Converts `pixels` (RGBA or gray, 8 or 16 bits) described by `profile` into sRGB (gray: sGray)
    /// in place; `false` when the format is not one of those (nothing is converted).
    static func convert(
        _ pixels: inout PixelBuffer, from profile: ICCProfile, intent: RenderingIntent, threads: Int, name: String?
    ) throws(CodecError) -> Bool {
        let layout: ICCTransform.Layout
        let space: ColorSpace
        switch pixels.format {
        case .rgba8: (layout, space) = (.rgba8, .sRGB)
        case .rgba16: (layout, space) = (.rgba16, .sRGB)
        case .gray8: (layout, space) = (.gray8, .sGray)
        case .gray16: (layout, space) = (.gray16, .sGray)
        default: return false
        }
        let transform = try makeTransform(from: profile, layout: layout, to: space, layout: layout, intent, name)
        var output = PixelBuffer(width: pixels.width, height: pixels.height, format: pixels.format)
        output.withUnsafeMutablePlane { destination in
            pixels.withUnsafeMutablePlane { source in run(transform, source, destination, threads: threads) }
        }
        output.colorSpace = space
        output.isPremultiplied = pixels.isPremultiplied
        pixels = output
        return true
    }

    /// Converts interleaved 8-bit CMYK rows (`stride` bytes apart) described by `profile` into sRGB `.rgba8` pixels.
    static func convertCMYK(
        _ samples: UnsafeRawBufferPointer, stride: Int, width: Int, height: Int, inverted: Bool, profile: ICCProfile,
        intent: RenderingIntent, threads: Int, name: String?
    ) throws(CodecError) -> PixelBuffer {
        let transform = try makeTransform(
            from: profile, layout: .cmyk8(inverted: inverted), to: .sRGB, layout: .rgba8, intent, name)
        var output = PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: .sRGB)
        output.withUnsafeMutablePlane { plane in
            for y in 0..<height {
                let row = plane.baseAddress + y * plane.bytesPerRow
                for x in 0..<width { row.storeBytes(of: 255, toByteOffset: 4 * x + 3, as: UInt8.self) }
            }
        }
        output.withUnsafeMutablePlane { destination in
            let source = MutableRawPlane(
                baseAddress: UnsafeMutableRawPointer(mutating: samples.baseAddress!), bytesPerRow: stride, width: width,
                height: height)
            run(transform, source, destination, threads: threads)
        }
        return output
    }

    /// Converts interleaved 8-bit CMYK rows without a profile into sRGB `.rgba8` pixels the way PDF and PostScript
    /// treat DeviceCMYK (and ImageMagick and Pillow do): R = (1 − C)(1 − K), G = (1 − M)(1 − K), B = (1 − Y)(1 − K).
    ///
    /// No CMYK characterisation can be redistributed with Lux under its licence, so this is the documented default
    /// for CMYK files that embed no profile.
    static func convertDeviceCMYK(
        _ samples: UnsafeRawBufferPointer, stride: Int, width: Int, height: Int, inverted: Bool, threads: Int
    ) -> PixelBuffer {
        var output = PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: .sRGB)
        output.withUnsafeMutablePlane { destination in
            let source = MutableRawPlane(
                baseAddress: UnsafeMutableRawPointer(mutating: samples.baseAddress!), bytesPerRow: stride, width: width,
                height: height)
            Parallel.forEachBand(height, threads: threads, minimumBand: 32) { range in
                for y in range {
                    let from = source.row(y, as: UInt8.self)
                    let to = destination.row(y, as: UInt8.self)
                    for x in 0..<width {
                        // 255 − ink (inverted files store 255 − ink already).
                        func paper(_ i: Int) -> UInt32 { UInt32(inverted ? from[4 * x + i] : 255 - from[4 * x + i]) }
                        let k = paper(3)
                        for c in 0..<3 { to[4 * x + c] = UInt8((paper(c) * k + 127) / 255) }
                        to[4 * x + 3] = 255
                    }
                }
            }
        }
        return output
    }

    private static func makeTransform(
        from profile: ICCProfile, layout: ICCTransform.Layout, to space: ColorSpace,
        layout outputLayout: ICCTransform.Layout,
        _ intent: RenderingIntent, _ name: String?
    ) throws(CodecError) -> ICCTransform {
        do {
            return try ICCTransform(
                from: profile, layout: layout, to: try space.iccProfile(), layout: outputLayout, intent: intent)
        } catch {
            throw .malformed(
                what: "\(name.map { $0 + ": " } ?? "")embedded ICC profile \(profile)", offset: 0,
                reason: error.description)
        }
    }

    /// Runs `transform` over bands of rows of `source` into `destination` (the same size) on up to `threads`
    /// threads; `source` is only read.
    private static func run(
        _ transform: ICCTransform, _ source: MutableRawPlane, _ destination: MutableRawPlane, threads: Int
    ) {
        Parallel.forEachBand(destination.height, threads: threads, minimumBand: 32) { range in
            transform.convert(
                source.row(range.lowerBound), to: destination.row(range.lowerBound), width: destination.width,
                rows: range.count, sourceStride: source.bytesPerRow, destinationStride: destination.bytesPerRow)
        }
    }
}
