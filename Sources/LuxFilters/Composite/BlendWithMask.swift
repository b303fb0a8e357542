public import LuxRender

/// Luma or alpha masks (the kinds of ``Filters/MaskBlendFilter``).
public protocol MaskBlendKind: Sendable {
    /// The filter name.
    static var name: String { get }
    /// `true` to blend by the mask's alpha, `false` by its luma.
    static var usesAlpha: Bool { get }
}

extension Filters {
    /// Shows the image where the mask is 1 and the background where it is 0, blending in between: `background + (image
    /// − background)·m` on premultiplied colour, with `m` the mask's straight luma (working space, clamped to 0…1) or
    /// its alpha.
    ///
    /// The extent is the union of image and background.
    public struct MaskBlendFilter<Kind: MaskBlendKind>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Kind.name, categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
                summary: Kind.usesAlpha
                    ? "Blends the image and the background by a mask's alpha."
                    : "Blends the image and the background by a grayscale mask.",
                .image(\.image, summary: "Shown where the mask is 1."),
                .image(\.background, "background", summary: "Shown where the mask is 0."),
                .image(\.mask, "mask", summary: "The mask."))
        }

        public var image: Image = .empty
        public var background: Image = .empty
        public var mask: Image = .empty

        public init() {}

        public var outputImage: Image {
            MaskBlend.apply(image, background: background, mask: mask, useAlpha: Kind.usesAlpha)
        }
    }
}

/// The kernel of ``Filters/MaskBlendFilter``.
enum MaskBlend {
    static func apply(_ image: Image, background: Image, mask: Image, useAlpha: Bool) -> Image {
        let kernel = ColorKernel(name: useAlpha ? "blendWithAlphaMask" : "blendWithMask", inputCount: 3) { row in
            let s = row.pixels
            let d = row.input(1)
            let m = row.input(2)
            for i in 0..<row.count {
                let a = m.alpha[i]
                let inv: Float = a > 0 ? 1 / a : 0
                let luma = clampFloat(
                    (Luma.red * m.red[i] + Luma.green * m.green[i] + Luma.blue * m.blue[i]) * inv, 0, 1)
                let k = useAlpha ? a : luma
                s.red[i] = d.red[i] + (s.red[i] - d.red[i]) * k
                s.green[i] = d.green[i] + (s.green[i] - d.green[i]) * k
                s.blue[i] = d.blue[i] + (s.blue[i] - d.blue[i]) * k
                s.alpha[i] = d.alpha[i] + (s.alpha[i] - d.alpha[i]) * k
            }
        }
        return kernel.apply(extent: image.extent.union(background.extent), inputs: [image, background, mask])
    }
}

/// The two mask kinds.
public enum MaskBlendKinds {
    /// By luma.
    public enum Gray: MaskBlendKind {
        public static let name = "BlendWithMask"
        public static let usesAlpha = false
    }

    /// By alpha.
    public enum Alpha: MaskBlendKind {
        public static let name = "BlendWithAlphaMask"
        public static let usesAlpha = true
    }
}

extension Filters {
    /// Blends by a grayscale mask (see ``MaskBlendFilter``).
    public typealias BlendWithMask = MaskBlendFilter<MaskBlendKinds.Gray>
    /// Blends by a mask's alpha (see ``MaskBlendFilter``).
    public typealias BlendWithAlphaMask = MaskBlendFilter<MaskBlendKinds.Alpha>
}

extension Image {
    /// This image over `background` where `mask` is white (see ``Filters/MaskBlendFilter``).
    public func blended(with background: Image, mask: Image) -> Image {
        MaskBlend.apply(self, background: background, mask: mask, useAlpha: false)
    }

    /// This image over `background` where `mask` is opaque (see ``Filters/MaskBlendFilter``).
    public func blended(with background: Image, alphaMask mask: Image) -> Image {
        MaskBlend.apply(self, background: background, mask: mask, useAlpha: true)
    }
}
