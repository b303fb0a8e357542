import LuxColor
import LuxPixels

/// Conversion at decode time through an embedded ICC profile that Lux's matrix/TRC engine cannot describe as a
/// ``ColorSpace`` (CMYK, LUT-based RGB and gray): Little CMS builds one ``ICCTransform`` per image and runs it over
/// bands of rows on all threads, and the pixels come out in sRGB (gray: sGray).
enum ProfileConversion {
    /// The validated profile when `bytes` need Little CMS for pixels of `model` (`nil`: Lux's own engine handles
    /// them, there is nothing to convert, or the profile describes another colour model and is ignored, as web
    /// browsers and vips ignore it).
    ///
    /// - Throws: ``CodecError/malformed(what:offset:reason:)`` naming the file when the profile is damaged (its
    ///   header, tag table or a tag's offset or size is wrong): the pixels' colours cannot be known, and guessing
    ///   sRGB would silently show them wrong.
    static func profileNeedingConversion(
        _ bytes: [UInt8]?, model: ICCProfile.ColorSpaceSignature, name: String?
    ) throws(CodecError) -> ICCProfile? {
        guard let bytes, ColorProfiles.colorSpace(fromProfile: bytes) == nil else { return nil }
        let profile: ICCProfile
        do { profile = try ICCProfile(data: bytes) } catch {
            throw .malformed(
                what: "\(name.map { $0 + ": " } ?? "")the image's embedded ICC profile", offset: 0,
                reason: error.description)
        }
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

    /// The CMYK profile of a CMYK file (`nil` when it embeds none).
    ///
    /// - Throws: ``CodecError/malformed(what:offset:reason:)`` naming the file when the profile is damaged or
    ///   describes another colour model: CMYK values cannot be shown faithfully without their own profile.
    static func cmykProfile(_ bytes: [UInt8]?, name: String?) throws(CodecError) -> ICCProfile? {
        guard let bytes else { return nil }
        let what = "\(name.map { $0 + ": " } ?? "")the CMYK image's ICC profile"
        let profile: ICCProfile
        do { profile = try ICCProfile(data: bytes) } catch {
            throw .malformed(what: what, offset: 0, reason: error.description)
        }
        guard profile.dataColorSpace == .cmyk else {
            throw .malformed(what: what, offset: 0, reason: "it describes \(profile.dataColorSpace) values, not CMYK")
        }
        return profile
    }

    /// Converts CMYK samples held in an `.rgba8` or `.rgba16` buffer's memory (C, M, Y, K where R, G, B, A would
    /// be) into sRGB pixels of the same format in place: through `profile` by Little CMS, or without one the way PDF
    /// and PostScript treat DeviceCMYK (as ImageMagick and Pillow do): R = (1 − C)(1 − K), G = (1 − M)(1 − K),
    /// B = (1 − Y)(1 − K).
    ///
    /// No CMYK characterisation can be redistributed with Lux under its licence, so DeviceCMYK is the documented
    /// default for CMYK files that embed no profile. `inverted` samples (Adobe's convention) store 1 − ink.
    static func convertCMYK(
        _ samples: inout PixelBuffer, inverted: Bool, profile: ICCProfile?, intent: RenderingIntent, threads: Int,
        name: String?
    ) throws(CodecError) {
        let sixteen = samples.format == .rgba16
        var output = PixelBuffer(width: samples.width, height: samples.height, format: samples.format)
        if let profile {
            let transform = try makeTransform(
                from: profile, layout: sixteen ? .cmyk16 : .cmyk8(inverted: inverted), to: .sRGB,
                layout: sixteen ? .rgba16 : .rgba8, intent, name)
            output.withUnsafeMutablePlane { destination in
                samples.withUnsafeMutablePlane { source in
                    run(transform, source, destination, threads: threads)
                    if sixteen {
                        deviceCMYK(source, destination, UInt16.self, inverted, threads, alphaOnly: true)
                    } else {
                        deviceCMYK(source, destination, UInt8.self, inverted, threads, alphaOnly: true)
                    }
                }
            }
        } else {
            output.withUnsafeMutablePlane { destination in
                samples.withUnsafeMutablePlane { source in
                    if sixteen {
                        deviceCMYK(source, destination, UInt16.self, inverted, threads, alphaOnly: false)
                    } else {
                        deviceCMYK(source, destination, UInt8.self, inverted, threads, alphaOnly: false)
                    }
                }
            }
        }
        output.colorSpace = .sRGB
        samples = output
    }

    /// DeviceCMYK → RGB of `source` into `destination` with opaque alpha (only the alpha when `alphaOnly`).
    private static func deviceCMYK<T: FixedWidthInteger & UnsignedInteger>(
        _ source: MutableRawPlane, _ destination: MutableRawPlane, _: T.Type, _ inverted: Bool, _ threads: Int,
        alphaOnly: Bool
    ) {
        let width = destination.width
        let maximum = UInt32(T.max)
        Parallel.forEachBand(destination.height, threads: threads, minimumBand: 32) { range in
            for y in range {
                let from = source.row(y, as: T.self)
                let to = destination.row(y, as: T.self)
                for x in 0..<width {
                    to[4 * x + 3] = T.max
                    if alphaOnly { continue }
                    func paper(_ i: Int) -> UInt32 {
                        inverted ? UInt32(from[4 * x + i]) : maximum - UInt32(from[4 * x + i])
                    }
                    let k = paper(3)
                    for c in 0..<3 { to[4 * x + c] = T(truncatingIfNeeded: (paper(c) * k + maximum / 2) / maximum) }
                }
            }
        }
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
