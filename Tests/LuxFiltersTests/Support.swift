import LuxColor
import LuxPixels
import LuxRender

/// A small deterministic generator for test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
}

/// Random opaque (or translucent) RGBA float buffers.
func randomBuffer(width: Int, height: Int, seed: UInt64, colorSpace: ColorSpace? = .extendedLinearSRGB, alpha: Bool = false) -> PixelBuffer {
    var rng = SplitMix(seed: seed)
    var c: [Float] = []
    c.reserveCapacity(4 * width * height)
    for _ in 0..<(width * height) {
        c += [rng.unit(), rng.unit(), rng.unit(), alpha ? 0.2 + 0.8 * rng.unit() : 1]
    }
    return PixelBuffer(width: width, height: height, format: .rgbaFloat, components: c, colorSpace: colorSpace)
}

/// A context that computes exactly in float with no colour management (for algebraic oracles).
let exactContext = RenderContext(options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat, threadCount: 2, tileSize: 64))

func renderFloat(_ image: Image, _ rect: Rect? = nil, context: RenderContext = exactContext) throws -> [Float] {
    try context.createBuffer(image, from: rect, format: .rgbaFloat, colorSpace: nil).components(as: Float.self)
}
