import LuxColor
import LuxPixels

/// Turns the public node graph into IR for one render: resolves the working space, converts colours,
/// and makes every alpha conversion and colour match an explicit per-pixel node.
struct Lowering {
    /// `nil`: no colour management (values are used as they are).
    let workingSpace: ColorSpace?
    private var memo: [UInt64: IRNode] = [:]

    init(workingSpace: ColorSpace?) { self.workingSpace = workingSpace }

    mutating func lower(_ n: Node) throws(RenderError) -> IRNode {
        if let m = memo[n.id] { return m }
        let r = try lowerUncached(n)
        memo[n.id] = r
        return r
    }

    /// The working-space value of `color`, unpremultiplied.
    func working(_ color: Color) -> SIMD4<Float> { color.converted(to: workingSpace) }

    /// A colour match between two spaces, or `nil` when it is the identity.
    func converter(from a: ColorSpace?, to b: ColorSpace?) throws(RenderError) -> ColorConverter? {
        guard let a, let b else { return nil }
        let lossless = !(a.isExtendedRange && !b.isExtendedRange)
        if lossless && a.isColorimetricallyEqual(to: b) { return nil }
        do {
            let c = try ConverterCache.converter(from: a, to: b)
            return lossless && c.isIdentity ? nil : c
        } catch {
            throw .colorSpace("cannot match \(a.name) to \(b.name): \(error)")
        }
    }

    /// `input` colour-matched with `converter` (straight colour around the match unless opaque).
    static func matched(_ input: IRNode, _ converter: ColorConverter?) -> IRNode {
        guard let converter else { return input }
        let straight = IRNode(unary: .unpremultiply, input)
        let m = IRNode(unary: .colorMatch(converter), straight)
        return IRNode(unary: .premultiply, m)
    }

    private mutating func lowerUncached(_ n: Node) throws(RenderError) -> IRNode {
        switch n.op {
        case .source(let box, let space):
            let ref = SourceRef(
                id: n.id, buffer: box.loadable, originalFormat: box.buffer.format,
                isPremultiplied: box.buffer.isPremultiplied)
            let leaf = IRNode(.source(ref), extent: n.extent, isOpaque: n.isOpaque)
            var x = leaf
            if !ref.isPremultiplied { x = IRNode(unary: .premultiply, x) }
            return Self.matched(x, try converter(from: space, to: workingSpace))
        case .constant(let color):
            let w = working(color)
            let p = SIMD4(w.x * w.w, w.y * w.w, w.z * w.w, w.w)
            return IRNode(.constant(p), extent: n.extent, isOpaque: n.isOpaque)
        case .empty:
            return IRNode(.empty, extent: .null, isOpaque: false)
        case .colorKernel(let k, let args, let colors):
            var inputs: [IRNode] = []
            for i in n.inputs { inputs.append(try lower(i)) }
            let wc = colors.map(working)
            if k.alphaHandling == .unpremultiplied {
                inputs = inputs.map { IRNode(unary: .unpremultiply, $0) }
                let body = IRNode(
                    .colorKernel(k, arguments: args, colors: wc), inputs, extent: n.extent, isOpaque: n.isOpaque)
                return IRNode(unary: .premultiply, body)
            }
            return IRNode(.colorKernel(k, arguments: args, colors: wc), inputs, extent: n.extent, isOpaque: n.isOpaque)
        case .warpKernel(let k, let args, let sampling, let roi):
            return IRNode(
                .warp(k, arguments: args, sampling: sampling, roi: roi), [try lower(n.inputs[0])], extent: n.extent,
                isOpaque: false)
        case .generalKernel(let k, let args, let colors, let roi):
            var inputs: [IRNode] = []
            for i in n.inputs { inputs.append(try lower(i)) }
            return IRNode(
                .general(k, arguments: args, colors: colors.map(working), roi: roi), inputs, extent: n.extent,
                isOpaque: false)
        case .processor(let p):
            var inputs: [IRNode] = []
            for i in n.inputs { inputs.append(try lower(i)) }
            return IRNode(.processor(p), inputs, extent: n.extent, isOpaque: n.isOpaque)
        case .crop(let r):
            return IRNode(
                .crop(PixelRect(covering: r)), [try lower(n.inputs[0])], extent: n.extent, isOpaque: n.isOpaque)
        case .transform(let t, let mode):
            let input = try lower(n.inputs[0])
            if t.isIntegerTranslation {
                return IRNode(
                    .translate(dx: Int(t.tx), dy: Int(t.ty)), [input], extent: n.extent, isOpaque: input.isOpaque)
            }
            return IRNode(.affine(t, mode), [input], extent: n.extent, isOpaque: false)
        case .clamp(let r):
            return IRNode(
                .clamp(PixelRect(covering: r)), [try lower(n.inputs[0])], extent: n.extent, isOpaque: n.isOpaque)
        case .matchToWorking(let space):
            return Self.matched(try lower(n.inputs[0]), try converter(from: space, to: workingSpace))
        case .matchFromWorking(let space):
            return Self.matched(try lower(n.inputs[0]), try converter(from: workingSpace, to: space))
        case .premultiply:
            return IRNode(unary: .premultiply, try lower(n.inputs[0]))
        case .unpremultiply:
            return IRNode(unary: .unpremultiply, try lower(n.inputs[0]))
        case .setAlphaOne:
            return IRNode(unary: .setAlphaOne, try lower(n.inputs[0]), isOpaque: true)
        case .intermediate(let cache):
            return IRNode(unary: .intermediate(cache: cache), try lower(n.inputs[0]))
        case .sampling:
            return try lower(n.inputs[0])
        }
    }
}
