import LuxColor
import LuxPixels

/// The compiler's working form of a graph: like ``Node`` but with the working space resolved, alpha
/// conversions explicit, and mutable so the optimiser can rewrite it.
final class IRNode {
    var op: IROp
    var inputs: [IRNode]
    var extent: Rect
    var isOpaque: Bool

    init(_ op: IROp, _ inputs: [IRNode] = [], extent: Rect, isOpaque: Bool) {
        self.op = op
        self.inputs = inputs
        self.extent = extent
        self.isOpaque = isOpaque
    }

    /// A one-input node over `input` with the input's extent.
    convenience init(unary op: IROp, _ input: IRNode, isOpaque: Bool? = nil) {
        self.init(op, [input], extent: input.extent, isOpaque: isOpaque ?? input.isOpaque)
    }
}

/// A source buffer as the executor reads it.
struct SourceRef {
    let id: UInt64
    /// The buffer in a directly loadable format.
    let buffer: PixelBuffer
    /// The format of the original buffer (for printing).
    let originalFormat: PixelFormat
    let isPremultiplied: Bool
}

enum IROp {
    case source(SourceRef)
    /// Premultiplied working-space colour.
    case constant(SIMD4<Float>)
    case empty
    /// `colors` are unpremultiplied working-space values.
    case colorKernel(ColorKernel, arguments: String, colors: [SIMD4<Float>])
    case warp(WarpKernel, arguments: String, sampling: SamplingMode, roi: @Sendable (Rect) -> Rect)
    case general(GeneralKernel, arguments: String, colors: [SIMD4<Float>], roi: GeneralKernel.RegionOfInterest)
    case processor(ImageProcessor)
    case crop(PixelRect)
    case translate(dx: Int, dy: Int)
    case affine(AffineTransform, SamplingMode)
    case clamp(PixelRect)
    case colorMatch(ColorConverter)
    case premultiply
    case unpremultiply
    case setAlphaOne
    case intermediate(cache: Bool)
}

extension IRNode {
    /// Whether the node computes each output pixel from the same position of its inputs only.
    var isPerPixel: Bool {
        switch op {
        case .colorKernel, .colorMatch, .premultiply, .unpremultiply, .setAlphaOne: true
        default: false
        }
    }

    /// A short label for program printing (`sepiaTone(intensity=0.8)`, `colormatch_sRGB_to_workspace`…).
    var label: String {
        switch op {
        case .source(let s): "load_\(s.buffer.format.shortName)"
        case .constant(let c): "constant(\(c.x) \(c.y) \(c.z) \(c.w))"
        case .empty: "empty"
        case .colorKernel(let k, let args, _): args.isEmpty ? k.name : "\(k.name)[\(args)]"
        case .warp(let k, let args, let s, _): (args.isEmpty ? k.name : "\(k.name)[\(args)]") + "_\(s.rawValue)"
        case .general(let k, let args, _, _): args.isEmpty ? k.name : "\(k.name)[\(args)]"
        case .processor(let p): "processor_\(p.processorDescription)"
        case .crop(let r): "crop\(r)"
        case .translate(let dx, let dy): "translate[\(dx) \(dy)]"
        case .affine(let t, let m): "affine_\(m.rawValue)\(t)"
        case .clamp(let r): "clamp\(r)"
        case .colorMatch(let c): "colormatch[\(spaceLabel(c.source))_to_\(spaceLabel(c.destination))]"
        case .premultiply: "premultiply"
        case .unpremultiply: "unpremultiply"
        case .setAlphaOne: "alpha_one"
        case .intermediate(let cache): cache ? "intermediate_cached" : "intermediate"
        }
    }
}

func spaceLabel(_ s: ColorSpace) -> String { "\"\(s.name)\"" }

extension PixelFormat {
    /// Core Image–style short names (RGBA8, RGBAh, RGBAf …).
    var shortName: String {
        switch self {
        case .rgba8: "RGBA8"
        case .bgra8: "BGRA8"
        case .rgba16: "RGBA16"
        case .rgbaHalf: "RGBAh"
        case .rgbaFloat: "RGBAf"
        case .gray8: "L8"
        case .gray16: "L16"
        case .grayFloat: "Lf"
        default: description
        }
    }
}
