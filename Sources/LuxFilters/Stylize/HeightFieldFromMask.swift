public import LuxRender

extension Filters {
    /// A height field shaped like a rounded loft from a grey mask: 0 on and outside the mask's edge, rising smoothly
    /// to 1 about `radius` pixels inside it.
    ///
    /// With `b` the mask's Rec. 709 luma (working space, clamped to 0…1) blurred by a Gaussian of standard deviation
    /// `radius` (edges extended) and `t = clamp(2b − 1, 0, 1)`, the height is `√(1 − (1 − t)²)`, a quarter circle:
    /// steep at the edge, flat on top. The output is that grey, opaque. The extent is the mask's.
    public struct HeightFieldFromMask: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HeightFieldFromMask", categories: [.stylize, .stillImage, .video],
            summary: "Makes a rounded height field from a grey mask.",
            .image(\.image, summary: "The mask: white inside."),
            .parameter(
                "radius", \.radius, slider: 0...300, allowed: 0...1e4, unit: .pixels,
                summary: "The width of the rounded rim."))

        public var image: Image = .empty
        public var radius: Double = 10

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            let blurred = radius > 0 ? image.clampedToExtent().gaussianBlur(radius: radius).cropped(to: e) : image
            let loft = ColorKernel(name: "heightField", alphaHandling: .unpremultiplied) { row in
                let p = row.pixels
                for i in 0..<row.count {
                    let b = min(max(Luma.red * p.red[i] + Luma.green * p.green[i] + Luma.blue * p.blue[i], 0), 1)
                    let u = 1 - min(max(2 * b - 1, 0), 1)
                    let h = (1 - u * u).squareRoot()
                    p.red[i] = h
                    p.green[i] = h
                    p.blue[i] = h
                    p.alpha[i] = 1
                }
            }
            return loft.apply(extent: e, inputs: [blurred], arguments: "radius=\(radius)")
        }
    }
}

extension Image {
    /// A rounded height field from this mask (see ``Filters/HeightFieldFromMask``).
    public func heightFieldFromMask(radius: Double = 10) -> Image {
        applyingFilter(Filters.HeightFieldFromMask { $0.radius = radius })
    }
}
