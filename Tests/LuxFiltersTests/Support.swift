import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport

/// Random opaque (or translucent) RGBA float buffers.
func randomBuffer(
    width: Int, height: Int, seed: UInt64, colorSpace: ColorSpace? = .extendedLinearSRGB, alpha: Bool = false
) -> PixelBuffer {
    var rng = SplitMix(seed: seed)
    var c: [Float] = []
    c.reserveCapacity(4 * width * height)
    for _ in 0..<(width * height) {
        c += [rng.unit(), rng.unit(), rng.unit(), alpha ? 0.2 + 0.8 * rng.unit() : 1]
    }
    return PixelBuffer(width: width, height: height, format: .rgbaFloat, components: c, colorSpace: colorSpace)
}

/// A context that computes exactly in float with no colour management (for algebraic oracles).
let exactContext = RenderContext(
    options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat, threadCount: 2, tileSize: 64))

func renderFloat(_ image: Image, _ rect: Rect? = nil, context: RenderContext = exactContext) throws -> [Float] {
    try context.createBuffer(image, from: rect, format: .rgbaFloat, colorSpace: nil).components(as: Float.self)
}
