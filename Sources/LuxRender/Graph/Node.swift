import LuxColor
import LuxPixels
import Synchronization

/// Process-wide counter giving every node a unique identity (used in cache keys and printing).
private let nodeCounter = Atomic<UInt64>(0)

/// One immutable step of a recipe.
///
/// ``Image`` is a value wrapper around the root node of a graph.
final class Node: Sendable {
    let id: UInt64
    let op: NodeOp
    let inputs: [Node]
    let extent: Rect
    let isOpaque: Bool

    init(_ op: NodeOp, inputs: [Node] = [], extent: Rect, isOpaque: Bool) {
        id = nodeCounter.add(1, ordering: .relaxed).newValue
        self.op = op
        self.inputs = inputs
        self.extent = extent
        self.isOpaque = isOpaque
    }
}

/// What a node does.
enum NodeOp: Sendable {
    /// Pixels from memory, with the colour space they are encoded in (`nil`: already in the working space).
    case source(SourceBox, colorSpace: ColorSpace?)
    /// A constant colour everywhere in the extent.
    case constant(Color)
    /// Nothing (transparent, empty extent).
    case empty
    case colorKernel(ColorKernel, arguments: String, colors: [Color])
    case warpKernel(WarpKernel, arguments: String, sampling: SamplingMode, roi: @Sendable (Rect) -> Rect)
    case generalKernel(GeneralKernel, arguments: String, colors: [Color], roi: GeneralKernel.RegionOfInterest)
    case processor(ImageProcessor)
    case crop(Rect)
    case transform(AffineTransform, SamplingMode)
    /// Repeats the edge pixels of `rect` (the input's extent) to infinity.
    case clamp(Rect)
    case matchToWorking(ColorSpace)
    case matchFromWorking(ColorSpace)
    case premultiply
    case unpremultiply
    case setAlphaOne
    case intermediate(cache: Bool)
    /// Marks the sampling mode later transforms of this image use.
    case sampling(SamplingMode)
}

/// A source buffer and lazily converted forms of it (formats the row loaders do not read directly).
final class SourceBox: Sendable {
    let buffer: PixelBuffer
    private let converted = Mutex<PixelBuffer?>(nil)

    init(_ buffer: PixelBuffer) { self.buffer = buffer }

    /// The buffer in a format the engine loads directly (converted once, then kept).
    var loadable: PixelBuffer {
        if Self.directFormats.contains(buffer.format) { return buffer }
        return converted.withLock { cached in
            if let cached { return cached }
            let target: PixelFormat = buffer.format.isMosaic || buffer.format == .gray16 ? .rgbaFloat : .rgbaHalf
            let c = buffer.converted(to: target, threads: Parallel.defaultThreadCount)
            cached = c
            return c
        }
    }

    static let directFormats: Set<PixelFormat> = [.rgba8, .bgra8, .rgba16, .rgbaHalf, .rgbaFloat, .gray8, .grayFloat]
}
