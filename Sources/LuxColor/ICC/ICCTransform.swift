internal import CLCMS2

/// A colour transform between two ICC profiles built by Little CMS 2, for the profiles Lux's own matrix/TRC
/// engine does not handle: LUT-based (A2B/B2A, CLUT) RGB and gray profiles, CMYK profiles, and rendering intents.
///
/// The transform is built once (per image) and then converts rows of samples; it keeps no per-call state, so
/// several threads may convert different rows at the same time. Both profiles have passed ``ICCProfile``'s
/// validation (header, tag table, every tag's offset and size inside the data) before Little CMS sees them.
///
/// ```swift
/// let cmyk = try ICCProfile(data: embeddedProfile)
/// let transform = try ICCTransform(
///     from: cmyk, layout: .cmyk8(inverted: true), to: try ColorSpace.sRGB.iccProfile(), layout: .rgba8)
/// transform.convert(cmykRow, to: rgbaRow, width: width, rows: 1, sourceStride: 4 * width, destinationStride: 4 * width)
/// ```
public final class ICCTransform: @unchecked Sendable {
    /// How samples are laid out in memory on one side of a transform (interleaved, native byte order).
    public enum Layout: Hashable, Sendable, CustomStringConvertible {
        /// One 8-bit gray sample per pixel.
        case gray8
        /// One 16-bit gray sample per pixel.
        case gray16
        /// 8-bit R, G, B, A (alpha is copied when both sides have it, left untouched otherwise).
        case rgba8
        /// 16-bit R, G, B, A.
        case rgba16
        /// 32-bit float R, G, B, A (0…1).
        case rgbaFloat
        /// 8-bit C, M, Y, K; `inverted` for Adobe's convention (0 = full ink), used by CMYK JPEGs with an Adobe
        /// marker.
        case cmyk8(inverted: Bool)
        /// 16-bit C, M, Y, K.
        case cmyk16

        /// The ICC data colour space the layout holds.
        public var colorSpace: ICCProfile.ColorSpaceSignature {
            switch self {
            case .gray8, .gray16: .gray
            case .rgba8, .rgba16, .rgbaFloat: .rgb
            case .cmyk8, .cmyk16: .cmyk
            }
        }

        /// Bytes per pixel.
        public var bytesPerPixel: Int {
            switch self {
            case .gray8: 1
            case .gray16: 2
            case .rgba8, .cmyk8: 4
            case .rgba16, .cmyk16: 8
            case .rgbaFloat: 16
            }
        }

        var hasAlpha: Bool { [.rgba8, .rgba16, .rgbaFloat].contains(self) }

        /// Little CMS's pixel type word (lcms2.h's TYPE_… macros, which Swift cannot import).
        var lcmsFormat: UInt32 {
            // COLORSPACE_SH << 16, FLOAT_SH << 22, FLAVOR_SH << 13, EXTRA_SH << 7, CHANNELS_SH << 3, BYTES_SH.
            func word(space: UInt32, channels: UInt32, extra: UInt32 = 0, bytes: UInt32, float: Bool = false) -> UInt32
            {
                (float ? 1 << 22 : 0) | space << 16 | extra << 7 | channels << 3 | bytes
            }
            let (gray, rgb, cmyk): (UInt32, UInt32, UInt32) = (3, 4, 6)
            switch self {
            case .gray8: return word(space: gray, channels: 1, bytes: 1)
            case .gray16: return word(space: gray, channels: 1, bytes: 2)
            case .rgba8: return word(space: rgb, channels: 3, extra: 1, bytes: 1)
            case .rgba16: return word(space: rgb, channels: 3, extra: 1, bytes: 2)
            case .rgbaFloat: return word(space: rgb, channels: 3, extra: 1, bytes: 4, float: true)
            case .cmyk8(let inverted): return word(space: cmyk, channels: 4, bytes: 1) | (inverted ? 1 << 13 : 0)
            case .cmyk16: return word(space: cmyk, channels: 4, bytes: 2)
            }
        }

        public var description: String {
            switch self {
            case .gray8: "8-bit gray"
            case .gray16: "16-bit gray"
            case .rgba8: "8-bit RGBA"
            case .rgba16: "16-bit RGBA"
            case .rgbaFloat: "float RGBA"
            case .cmyk8(let inverted): inverted ? "8-bit inverted CMYK" : "8-bit CMYK"
            case .cmyk16: "16-bit CMYK"
            }
        }
    }

    /// The layout of the rows converted from.
    public let sourceLayout: Layout
    /// The layout of the rows converted to.
    public let destinationLayout: Layout
    /// The rendering intent the transform was built with.
    public let intent: RenderingIntent

    private let context: cmsContext
    private let transform: cmsHTRANSFORM

    /// Builds a transform from `source` (samples laid out as `sourceLayout`) to `destination`.
    ///
    /// - Parameters:
    ///   - intent: how out-of-gamut colours are mapped (default relative colorimetric).
    ///   - blackPointCompensation: whether the source's black is scaled to the destination's.
    /// - Throws: ``ColorError/unsupportedProfile(description:reason:)`` when a layout does not match its profile's
    ///   colour space or the profile is not an input/display/output/colour-space class profile;
    ///   ``ColorError/malformedProfile(reason:offset:)`` when Little CMS cannot read a profile or build the transform.
    public init(
        from source: ICCProfile, layout sourceLayout: Layout, to destination: ICCProfile,
        layout destinationLayout: Layout, intent: RenderingIntent = .relativeColorimetric,
        blackPointCompensation: Bool = false
    ) throws(ColorError) {
        for (profile, layout) in [(source, sourceLayout), (destination, destinationLayout)] {
            guard profile.dataColorSpace == layout.colorSpace else {
                throw .unsupportedProfile(
                    description: profile.profileDescription,
                    reason: "a \(profile.dataColorSpace) profile cannot describe \(layout) samples")
            }
            guard [.input, .display, .output, .colorSpace].contains(profile.deviceClass) else {
                throw .unsupportedProfile(
                    description: profile.profileDescription,
                    reason: "\(profile.deviceClass) profiles do not describe an image's colours")
            }
        }
        guard let context = cmsCreateContext(nil, nil) else {
            throw .unsupportedConversion(from: source.description, to: destination.description, reason: "out of memory")
        }
        // Little CMS reports through this handler; errors reach the caller as a failed open or transform instead.
        cmsSetLogErrorHandlerTHR(context) { _, _, _ in }
        func open(_ profile: ICCProfile) -> cmsHPROFILE? {
            profile.data.withUnsafeBytes { cmsOpenProfileFromMemTHR(context, $0.baseAddress, UInt32($0.count)) }
        }
        let input = open(source)
        let output = open(destination)
        defer {
            if let input { cmsCloseProfile(input) }
            if let output { cmsCloseProfile(output) }
        }
        var flags = UInt32(cmsFLAGS_NOCACHE)
        if blackPointCompensation { flags |= UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION) }
        if sourceLayout.hasAlpha, destinationLayout.hasAlpha { flags |= UInt32(cmsFLAGS_COPY_ALPHA) }
        guard let input, let output,
            let transform = cmsCreateTransformTHR(
                context, input, sourceLayout.lcmsFormat, output, destinationLayout.lcmsFormat,
                UInt32(intent.iccValue), flags)
        else {
            cmsDeleteContext(context)
            let which = input == nil ? source : destination
            throw .malformedProfile(
                reason: "Little CMS cannot build a transform from \(source) to \(destination) (it rejects \(which))",
                offset: 0)
        }
        self.context = context
        self.transform = transform
        self.sourceLayout = sourceLayout
        self.destinationLayout = destinationLayout
        self.intent = intent
    }

    deinit {
        cmsDeleteTransform(transform)
        cmsDeleteContext(context)
    }

    /// Converts `rows` rows of `width` pixels.
    ///
    /// The strides are in bytes; each row holds at least `width` pixels of its layout. Alpha is copied when both
    /// layouts have it; a destination alpha without a source alpha is left as it was.
    public func convert(
        _ source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, width: Int, rows: Int,
        sourceStride: Int, destinationStride: Int
    ) {
        guard width > 0, rows > 0 else { return }
        cmsDoTransformLineStride(
            transform, source, destination, UInt32(width), UInt32(rows), UInt32(sourceStride),
            UInt32(destinationStride), 0, 0)
    }
}
