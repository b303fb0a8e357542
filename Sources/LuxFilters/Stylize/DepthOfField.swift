public import LuxPixels
public import LuxRender

extension Filters {
    /// A shallow depth of field, as a tilt-shift lens gives: the image stays sharp along the line through `point0`
    /// and `point1` and blurs away from it.
    ///
    /// Core Image gives no formula; Lux's is this. The image's saturation is scaled by `saturation` (as
    /// ``ColorControls`` does); the sharp copy is that, sharpened by ``UnsharpMask`` (`unsharpMaskRadius`,
    /// `unsharpMaskIntensity`), and the blurred copy is that, blurred by ``GaussianBlur`` (`radius`, edge pixels
    /// repeated). A pixel at distance `d` from the line mixes them by `m = smoothstep(0, 1, d / falloff)`, where
    /// `falloff` is half the distance between the points: sharp on the line, wholly blurred from `falloff` away. The
    /// extent is the input's.
    ///
    /// It costs a colour adjustment, an unsharp mask (itself a blur) and a Gaussian blur of every pixel, about 5
    /// times one GaussianBlur of radius 10 on 12 MP (`lux bench filters`): both copies are needed wherever the fall-off
    /// mixes them, which on a photograph is most of the frame.
    public struct DepthOfField: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DepthOfField", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Keeps a line of the image in focus and blurs the rest.", .image(\.image),
            .parameter("point0", \.point0, summary: "A point of the line in focus."),
            .parameter("point1", \.point1, summary: "Another point of the line; half their distance is the fall-off."),
            .parameter(
                "saturation", \.saturation, slider: 0...10, allowed: 0...100, summary: "The saturation scale."),
            .parameter(
                "unsharpMaskRadius", \.unsharpMaskRadius, slider: 0...10, allowed: 0...1000, unit: .pixels,
                summary: "The radius of the sharpening of the part in focus."),
            .parameter(
                "unsharpMaskIntensity", \.unsharpMaskIntensity, slider: 0...1, allowed: 0...100,
                summary: "The strength of the sharpening."),
            .parameter(
                "radius", \.radius, slider: 0...30, allowed: 0...1000, unit: .pixels,
                summary: "The standard deviation of the blur out of focus."))

        public var image: Image = .empty
        public var point0: Point = Point(x: 0, y: 300)
        public var point1: Point = Point(x: 300, y: 300)
        public var saturation: Double = 1.5
        public var unsharpMaskRadius: Double = 2.5
        public var unsharpMaskIntensity: Double = 0.5
        public var radius: Double = 6

        public init() {}

        /// The blurred copy's share at distance `d` from the line in focus.
        static func blurWeight(distance d: Float, falloff: Float) -> Float {
            let t = min(max(d / max(falloff, 1e-6), 0), 1)
            return t * t * (3 - 2 * t)
        }

        public var outputImage: Image {
            let e = image.extent
            let saturated = image.colorControls(saturation: saturation)
            let sharp = saturated.unsharpMask(radius: unsharpMaskRadius, intensity: unsharpMaskIntensity)
            let blurred = saturated.clampedToExtent().gaussianBlur(radius: radius).cropped(to: e)
            // The line's unit normal and its offset; the fall-off is half the points' distance.
            let ex = point1.x - point0.x
            let ey = point1.y - point0.y
            let length = (ex * ex + ey * ey).squareRoot()
            let nx = Float(length > 0 ? -ey / length : 0)
            let ny = Float(length > 0 ? ex / length : 1)
            let ax = Float(point0.x)
            let ay = Float(point0.y)
            let falloff = Float(length / 2)
            let kernel = GeneralKernel(name: "depthOfField", inputCount: 2) { row in
                let s = row.sampler(0).row(row.y)
                let b = row.sampler(1).row(row.y)
                let s0 = 4 * (row.x - row.sampler(0).minX)
                let b0 = 4 * (row.x - row.sampler(1).minX)
                let dy = (Float(row.y) + 0.5 - ay) * ny
                for i in 0..<row.count {
                    let d = abs((Float(row.x + i) + 0.5 - ax) * nx + dy)
                    let m = Self.blurWeight(distance: d, falloff: falloff)
                    // Wholly blurred pixels take the blurred copy alone: sharpening can leave a translucent pixel's
                    // alpha a hair below zero, whose colour must not leak through a zero weight.
                    for c in 0..<4 {
                        let sharpValue = s[s0 + 4 * i + c]
                        let blurredValue = b[b0 + 4 * i + c]
                        row.output[4 * i + c] = m < 1 ? sharpValue + m * (blurredValue - sharpValue) : blurredValue
                    }
                }
            }
            return kernel.apply(
                extent: e, inputs: [sharp, blurred],
                arguments: "point0=\(point0) point1=\(point1)"
            ) { _, rect in rect }
        }
    }
}

extension Image {
    /// The image in focus along a line and blurred away from it (see ``Filters/DepthOfField``).
    public func depthOfField(
        point0: Point, point1: Point, saturation: Double = 1.5, unsharpMaskRadius: Double = 2.5,
        unsharpMaskIntensity: Double = 0.5, radius: Double = 6
    ) -> Image {
        applyingFilter(
            Filters.DepthOfField {
                $0.point0 = point0
                $0.point1 = point1
                $0.saturation = saturation
                $0.unsharpMaskRadius = unsharpMaskRadius
                $0.unsharpMaskIntensity = unsharpMaskIntensity
                $0.radius = radius
            })
    }
}
