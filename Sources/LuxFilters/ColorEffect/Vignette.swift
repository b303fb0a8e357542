public import LuxRender

extension Filters {
    /// Darkens (or, with negative intensity, lightens) the image towards the corners of its extent, as light
    /// falls off in a lens.
    ///
    /// With `d` the distance from the extent's centre divided by half its diagonal (1 in the corners), linear
    /// colour is scaled by `1 − intensity·min((d / radius)², 1)`. An image of infinite extent is returned unchanged.
    public struct Vignette: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Vignette", categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Darkens the image towards its corners.", .image(\.image),
            .parameter(
                "intensity", \.intensity, slider: -1...1, allowed: -1...1,
                summary: "Darkening in the corners (negative lightens)."),
            .parameter(
                "radius", \.radius, slider: 0...2, allowed: 0...100, unit: .fraction,
                summary: "Where the full effect is reached, relative to the half-diagonal."))

        public var image: Image = .empty
        public var intensity: Double = 0
        public var radius: Double = 1

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            if intensity == 0 || e.isInfinite || e.isEmpty { return image }
            let half = (e.width * e.width + e.height * e.height).squareRoot() / 2
            let scale = Float(1 / (half * max(radius, 1e-9)))
            let cx = Float(e.midX)
            let cy = Float(e.midY)
            let k = Float(intensity)
            let kernel = ColorKernel(name: "vignette", alphaHandling: .premultiplied, preservesAlpha: true) { row in
                let p = row.pixels
                let dy = (Float(row.y) + 0.5 - cy) * scale
                let x0 = Float(row.x) + 0.5 - cx
                for i in 0..<row.count {
                    let dx = (x0 + Float(i)) * scale
                    let f = 1 - k * min(dx * dx + dy * dy, 1)
                    p.red[i] *= f
                    p.green[i] *= f
                    p.blue[i] *= f
                }
            }
            return image.applying(kernel, arguments: "intensity=\(intensity) radius=\(radius)")
        }
    }
}

extension Image {
    /// The image darkened towards its corners (see ``Filters/Vignette``).
    public func vignette(intensity: Double, radius: Double = 1) -> Image {
        applyingFilter(
            Filters.Vignette {
                $0.intensity = intensity
                $0.radius = radius
            })
    }
}
