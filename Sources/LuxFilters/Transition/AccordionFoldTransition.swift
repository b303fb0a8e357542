public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Folds the image up like an accordion towards its bottom edge while fading to the target.
    ///
    /// Core Image gives no formula; Lux's is this, in Lux's y-down coordinates. Of the image's extent (the target's
    /// when the image is infinite), the band `bottomHeight` pixels high at the bottom stays flat; the part above it,
    /// of height `F`, is `2·numberOfFolds` equal slats folded at the angle `θ` with `cos θ = 1 − time`, seen from
    /// straight in front: it is squeezed towards the band's top edge `b` to the height `F·(1 − time)`, a row at height
    /// `h` above `b` showing the image's row `b − h / (1 − time)`, and every second slat (counted from `b`, the second
    /// first) is darkened to `1 − foldShadowAmount·sin θ`. Where the folded image lies (and outside its columns) the
    /// pixel is `folded + (target − folded)·time`; above the folded part, within the image's columns, the target
    /// shows. Time 0 is the image and time 1 the target exactly. The extent is the union of the two images.
    public struct AccordionFoldTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AccordionFoldTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Folds the image up like an accordion while fading to the target.",
            .image(\.image, summary: "Shown at time 0."), .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter(
                "bottomHeight", \.bottomHeight, slider: 0...1000, allowed: 0...1e6, unit: .pixels,
                summary: "The height of the flat band at the bottom that does not fold."),
            .parameter(
                "numberOfFolds", \.numberOfFolds, slider: 1...50, allowed: 1...1000, summary: "The number of folds."),
            .parameter(
                "foldShadowAmount", \.foldShadowAmount, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How much the slats facing away are darkened when folded flat."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var bottomHeight: Double = 0
        public var numberOfFolds: Int = 3
        public var foldShadowAmount: Double = 0.1
        public var time: Double = 0

        public init() {}

        public var outputImage: Image {
            let page =
                image.extent.isInfinite || image.extent.isEmpty
                ? (target.extent.isInfinite ? Rect(x: 0, y: 0, width: 300, height: 300) : target.extent) : image.extent
            let t = Float(min(max(time, 0), 1))
            let squeeze = 1 - t
            let base = Float(page.maxY - min(max(bottomHeight, 0), page.height))
            let folded = base - Float(page.minY)
            let top = base - folded * squeeze
            let slatsPerPixel = Float(2 * max(numberOfFolds, 1)) / max(folded, 1e-6)
            let dark = 1 - Float(foldShadowAmount) * (1 - squeeze * squeeze).squareRoot()
            let (left, right, bottom) = (Float(page.minX), Float(page.maxX), Float(page.maxY))
            let kernel = GeneralKernel(name: "accordionFold", inputCount: 2) { row in
                let source = row.sampler(0)
                let goal = row.sampler(1)
                let y = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let x = Float(row.x + i) + 0.5
                    let after = goal.pixel(x: row.x + i, y: row.y)
                    let inColumns = x >= left && x < right && y < bottom
                    if t >= 1 || (inColumns && y < top) {
                        row.store(after, at: i)
                        continue
                    }
                    var before: SIMD4<Float>
                    if !inColumns || y >= base {
                        before = source.pixel(x: row.x + i, y: row.y)
                    } else {
                        let from = base - (base - y) / squeeze
                        before = source.sample(x: x, y: from)
                        if Int(((base - from) * slatsPerPixel).rounded(.down)) % 2 == 1 {
                            before = SIMD4(before.x * dark, before.y * dark, before.z * dark, before.w)
                        }
                    }
                    row.store(before + (after - before) * t, at: i)
                }
            }
            return kernel.apply(
                extent: image.extent.union(target.extent), inputs: [image, target],
                arguments: "bottomHeight=\(bottomHeight) folds=\(numberOfFolds) shadow=\(foldShadowAmount) time=\(time)"
            ) { index, rect in
                // A folded row reads a row between the top of the image and itself.
                guard index == 0 else { return rect }
                let reach = min(rect.minY, page.minY) - 1
                return Rect(x: rect.minX, y: reach, width: rect.width, height: rect.maxY + 1 - reach)
            }
        }
    }
}
