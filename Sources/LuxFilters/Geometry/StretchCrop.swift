public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Fits the image to `size` by cropping it towards the target's aspect ratio and stretching the rest, more in the
    /// middle than at the sides.
    ///
    /// Core Image gives no formula; Lux's is this. Of the input's frame (`W × H`), the centred region
    /// `W + cropAmount·(W' − W)` by `H + cropAmount·(H' − H)` is used, where `W' × H'` is the largest centred region
    /// with the target's aspect ratio: 0 stretches the whole frame, 1 crops to the target's shape. The region fills
    /// the output `0…size.x × 0…size.y`. Along the axis that is stretched more, output position `t` (0…1 across)
    /// reads the region at `t + centerStretchAmount·sin(2πt)/(2π)`: the middle is stretched by `1 − amount` times
    /// less source per pixel and the sides by `1 + amount`, so faces near the edges keep more of their shape. The
    /// other axis maps linearly. An input of infinite or empty extent is returned unchanged (it has no frame to fit).
    public struct StretchCrop: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "StretchCrop", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Crops and stretches the image to a new size.", .image(\.image),
            .parameter("size", \.size, unit: .pixels, summary: "The output's width and height."),
            .parameter(
                "cropAmount", \.cropAmount, slider: 0...1, allowed: 0...1,
                summary: "How far to crop towards the target's aspect ratio instead of stretching."),
            .parameter(
                "centerStretchAmount", \.centerStretchAmount, slider: 0...1, allowed: 0...1,
                summary: "How much more the middle is stretched than the sides."))

        public var image: Image = .empty
        public var size: SIMD2<Double> = [1280, 720]
        public var cropAmount: Double = 0.25
        public var centerStretchAmount: Double = 0.25

        public init() {}

        /// Where output position `t` (0…1 across an axis) reads, as a fraction of the used region.
        static func profile(_ t: Double, amount: Double) -> Double {
            t + amount * Double.sin(2 * Double.pi * t) / (2 * Double.pi)
        }

        public var outputImage: Image {
            let e = image.extent
            guard !e.isInfinite, !e.isEmpty else { return image }
            let w = max(size.x, 1)
            let h = max(size.y, 1)
            let a = min(max(cropAmount, 0), 1)
            let usedW = e.width + a * (min(e.width, e.height * w / h) - e.width)
            let usedH = e.height + a * (min(e.height, e.width * h / w) - e.height)
            let b = min(max(centerStretchAmount, 0), 1)
            let bx = w / usedW >= h / usedH ? b : 0
            let by = w / usedW >= h / usedH ? 0 : b
            let mx = e.midX
            let my = e.midY
            let kernel = WarpKernel(name: "stretchCrop") { row in
                let y = my + usedH * (Self.profile((Double(row.y) + 0.5) / h, amount: by) - 0.5)
                for i in 0..<row.count {
                    let x = mx + usedW * (Self.profile((Double(row.x + i) + 0.5) / w, amount: bx) - 0.5)
                    row.sourceX[i] = Float(x)
                    row.sourceY[i] = Float(y)
                }
            }
            return kernel.apply(
                extent: Rect(x: 0, y: 0, width: w, height: h), image: image,
                arguments: "size=\(size) cropAmount=\(cropAmount) centerStretchAmount=\(centerStretchAmount)"
            ) { rect in
                // The profile increases, so the rectangle's edges bound its sources.
                Rect(
                    minX: mx + usedW * (Self.profile(rect.minX / w, amount: bx) - 0.5),
                    minY: my + usedH * (Self.profile(rect.minY / h, amount: by) - 0.5),
                    maxX: mx + usedW * (Self.profile(rect.maxX / w, amount: bx) - 0.5),
                    maxY: my + usedH * (Self.profile(rect.maxY / h, amount: by) - 0.5))
            }
        }
    }
}

extension Image {
    /// The image cropped and stretched to `size` (see ``Filters/StretchCrop``).
    public func stretchCrop(size: SIMD2<Double>, cropAmount: Double = 0.25, centerStretchAmount: Double = 0.25) -> Image
    {
        applyingFilter(
            Filters.StretchCrop {
                $0.size = size
                $0.cropAmount = cropAmount
                $0.centerStretchAmount = centerStretchAmount
            })
    }
}
