public import LuxRender

extension Filters {
    /// Turns a grayscale mask into transparency: the result is white with alpha equal to the luma of the mask's
    /// sRGB-encoded colour (so a mid-gray 8-bit mask gives 50 % alpha), times the mask's own alpha.
    public struct MaskToAlpha: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "MaskToAlpha", displayName: "Mask to Alpha", categories: [.colorEffect, .stillImage, .video],
            summary: "Converts a grayscale mask to white with that alpha.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image {
            let kernel = ColorKernel(name: "maskToAlpha", alphaHandling: .unpremultiplied) { row in
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                let aa = p.alpha
                for i in 0..<row.count {
                    let y = clampFloat(Luma.red * rr[i] + Luma.green * gg[i] + Luma.blue * bb[i], 0, 1)
                    aa[i] *= y
                    rr[i] = 1
                    gg[i] = 1
                    bb[i] = 1
                }
            }
            // White is white in any space, so the result needs no match back.
            return image.matchedFromWorkingSpace(to: .extendedSRGB).applying(kernel)
        }
    }
}

extension Image {
    /// The image's luma as the alpha of white (see ``Filters/MaskToAlpha``).
    public func maskToAlpha() -> Image { applyingFilter(Filters.MaskToAlpha()) }
}
