public import LuxRender

extension Filters {
    /// Blurs along a line, like a camera moving during the exposure: each pixel becomes the mean of the image
    /// sampled (bilinearly) at `2⌈radius⌉ + 1` evenly spaced points from `−radius` to `+radius` along the direction
    /// `angle` (radians, counter-clockwise on screen from the x axis).
    ///
    /// The samples are at the same offsets for every pixel, so the blur is a sparse convolution: the bilinear
    /// weights are folded into at most `4·(2⌈radius⌉ + 1)` taps. The extent grows by the reach of the line.
    public struct MotionBlur: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "MotionBlur", categories: [.blur, .stillImage, .video, .highDynamicRange],
            summary: "Blurs along a line, like camera motion.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 0...100, allowed: 0...500, unit: .pixels,
                summary: "Half the length of the motion."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1000...1000, unit: .radians,
                summary: "The direction of the motion."))

        public var image: Image = .empty
        public var radius: Double = 20
        public var angle: Double = 0

        public init() {}

        /// The taps: every sample's bilinear weights, summed per integer offset.
        static func taps(radius: Double, angle: Double) -> ConvolutionTaps {
            let steps = Int(radius.rounded(.up))
            let n = 2 * steps + 1
            let ux = cosDouble(angle)
            let uy = -sinDouble(angle)
            var taps = ConvolutionTaps()
            for k in -steps...steps {
                let t = radius * Double(k) / Double(max(steps, 1))
                let x = t * ux
                let y = t * uy
                let ix = x.rounded(.down)
                let iy = y.rounded(.down)
                let fx = x - ix
                let fy = y - iy
                let w = 1 / Double(n)
                for (dx, dy, f) in [
                    (0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy),
                ]
                where f > 1e-9 {
                    taps.append(dx: Int(ix) + dx, dy: Int(iy) + dy, weight: Float(w * f))
                }
            }
            return taps
        }

        public var outputImage: Image {
            if radius < 0.5 { return image }
            return image.convolved(
                "motionBlur", taps: Self.taps(radius: radius, angle: angle),
                arguments: "radius=\(radius) angle=\(angle)")
        }
    }
}

extension Image {
    /// The image blurred along a line (see ``Filters/MotionBlur``).
    public func motionBlur(radius: Double = 20, angle: Double = 0) -> Image {
        applyingFilter(
            Filters.MotionBlur {
                $0.radius = radius
                $0.angle = angle
            })
    }
}
