public import LuxRender

/// The parameters of a photo look: saturation, a colour cast, an S-curve and black/white levels, applied in that order
/// to sRGB-encoded straight colour.
///
/// ```
/// y  = 0.2126·r + 0.7152·g + 0.0722·b
/// c₁ = (y + (c − y)·saturation) · tint              (per channel)
/// x  = clamp(c₁, 0, 1)
/// c₂ = c₁ − contrast · x·(1 − x)·(1 − 2x)            (an S-curve for contrast > 0, flatter below 0)
/// c₃ = black + (white − black)·c₂
/// ```
public struct PhotoLook: Sendable, Hashable {
    /// 0 = monochrome, 1 = unchanged.
    public var saturation: Float
    /// Per-channel gains (a colour cast).
    public var tint: SIMD3<Float>
    /// Strength of the S-curve, −1…1 (0 = none).
    public var contrast: Float
    /// Output of black (a lifted black fades the picture).
    public var black: Float
    /// Output of white.
    public var white: Float

    /// Creates a look.
    public init(saturation: Float, tint: SIMD3<Float> = .one, contrast: Float = 0, black: Float = 0, white: Float = 1) {
        self.saturation = saturation
        self.tint = tint
        self.contrast = contrast
        self.black = black
        self.white = white
    }

    /// The look applied to one straight, encoded colour (for tests and previews).
    public func apply(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let y = Luma.red * c.x + Luma.green * c.y + Luma.blue * c.z
        let c1 = (SIMD3(repeating: y) + (c - y) * saturation) * tint
        let x = c1.clamped(lowerBound: .zero, upperBound: .one)
        let c2 = c1 - contrast * x * (1 - x) * (1 - 2 * x)
        return black + (white - black) * c2
    }

    /// The look as a fused kernel on encoded colour.
    func kernel(name: String) -> ColorKernel {
        let s = saturation
        let (tr, tg, tb) = (tint.x, tint.y, tint.z)
        let k = contrast
        let lo = black
        let range = white - black
        return ColorKernel(name: name, alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            let rr = p.red
            let gg = p.green
            let bb = p.blue
            for i in 0..<row.count {
                let r = rr[i]
                let g = gg[i]
                let b = bb[i]
                let y = Luma.red * r + Luma.green * g + Luma.blue * b
                let r1 = (y + (r - y) * s) * tr
                let g1 = (y + (g - y) * s) * tg
                let b1 = (y + (b - y) * s) * tb
                let xr = clampFloat(r1, 0, 1)
                let xg = clampFloat(g1, 0, 1)
                let xb = clampFloat(b1, 0, 1)
                rr[i] = lo + range * (r1 - k * xr * (1 - xr) * (1 - 2 * xr))
                gg[i] = lo + range * (g1 - k * xg * (1 - xg) * (1 - 2 * xg))
                bb[i] = lo + range * (b1 - k * xb * (1 - xb) * (1 - 2 * xb))
            }
        }
    }
}

/// A named photo look (the styles of ``Filters/PhotoEffect``).
public protocol PhotoEffectStyle: Sendable {
    /// The filter name (`PhotoEffectChrome`).
    static var name: String { get }
    /// The name for people.
    static var displayName: String { get }
    /// One sentence on the look.
    static var summary: String { get }
    /// The look's parameters.
    static var look: PhotoLook { get }
}

extension Filters {
    /// A preset photo look (Lux's renditions of the classic camera-app styles): a fused per-pixel
    /// ``PhotoLook`` on sRGB-encoded colour.
    public struct PhotoEffect<Style: PhotoEffectStyle>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Style.name, displayName: Style.displayName, categories: [.colorEffect, .stillImage, .video],
                summary: Style.summary, .image(\.image))
        }

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image {
            let kernel = Style.look.kernel(name: Style.name)
            return image.inPerceptualSpace { $0.applying(kernel) }
        }
    }
}

extension Image {
    /// The image with a preset photo look (see ``Filters/PhotoEffect``), e.g.
    ///
    /// `photo.photoEffect(PhotoEffectStyles.Noir.self)`.
    public func photoEffect<Style: PhotoEffectStyle>(_ style: Style.Type) -> Image {
        applyingFilter(Filters.PhotoEffect<Style>())
    }
}
