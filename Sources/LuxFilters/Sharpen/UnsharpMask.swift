public import LuxRender

extension Filters {
    /// Sharpens by adding back the difference from a Gaussian blur: `c′ = c + intensity·(c − blur(c))`, on sRGB-encoded
    /// values (as ImageMagick's `-unsharp` and photo editors do).
    ///
    /// It runs on premultiplied values, alpha included, so a translucent edge sharpens with its colour; the alpha is
    /// then clamped to 0…1 (an overshoot would make a pixel more than opaque, an undershoot less than transparent),
    /// and a pixel whose alpha clamps to 0 is cleared. Edge pixels repeat under the blur; the extent is the input's.
    public struct UnsharpMask: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "UnsharpMask", categories: [.sharpen, .stillImage, .video],
            summary: "Sharpens edges by amplifying the difference from a blurred copy.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 0...100, allowed: 0...1000, unit: .pixels,
                summary: "The standard deviation of the blur."),
            .parameter("intensity", \.intensity, slider: 0...1, allowed: 0...100, summary: "How much to amplify."))

        public var image: Image = .empty
        public var radius: Double = 2.5
        public var intensity: Double = 0.5

        public init() {}

        public var outputImage: Image {
            if intensity == 0 || radius < 0.25 { return image }
            let k = Float(intensity)
            // Linear in its inputs: runs on premultiplied values and fuses with the colour matches.
            let kernel = ColorKernel(name: "unsharpMask", inputCount: 2) { row in
                let p = row.pixels
                let b = row.input(1)
                let n = row.count
                amplifyDifference(p.red, b.red, k, n)
                amplifyDifference(p.green, b.green, k, n)
                amplifyDifference(p.blue, b.blue, k, n)
                amplifyDifference(p.alpha, b.alpha, k, n)
                for i in 0..<n where !(p.alpha[i] > 0 && p.alpha[i] <= 1) {
                    if p.alpha[i] > 1 {
                        p.alpha[i] = 1
                    } else {
                        (p.red[i], p.green[i], p.blue[i], p.alpha[i]) = (0, 0, 0, 0)
                    }
                }
            }
            let e = image.extent
            let r = radius
            let args = "radius=\(radius) intensity=\(intensity)"
            return image.inPerceptualSpace { encoded in
                let blurred = encoded.clampedToExtent().gaussianBlur(radius: r).cropped(to: e)
                return kernel.apply(extent: e, inputs: [encoded, blurred], arguments: args)
            }
        }
    }
}

/// `c[i] += k·(c[i] − blurred[i])`.
@inline(__always)
func amplifyDifference(_ c: UnsafeMutablePointer<Float>, _ blurred: UnsafePointer<Float>, _ k: Float, _ n: Int) {
    for i in 0..<n { c[i] += k * (c[i] - blurred[i]) }
}

extension Image {
    /// The image sharpened with an unsharp mask (see ``Filters/UnsharpMask``).
    public func unsharpMask(radius: Double = 2.5, intensity: Double = 0.5) -> Image {
        applyingFilter(
            Filters.UnsharpMask {
                $0.radius = radius
                $0.intensity = intensity
            })
    }
}
