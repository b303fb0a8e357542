import LuxColor
import LuxPixels

/// Local graph rewrites applied bottom-up until nothing changes.
///
/// The rewrites:
///
/// - alpha: `premultiply(unpremultiply(x))` and `unpremultiply(premultiply(x))` become `x`; alpha
///   conversions of opaque images disappear;
/// - colour: adjacent colour matches compose into one, and cancel when they go A→B→A; adjacent
///   ``ColorTransform`` kernels compose into one;
/// - geometry: translations and affine transforms fold together; a crop merges with a crop below it and
///   moves below translations and per-pixel nodes (towards the sources it restricts); crops that remove
///   nothing disappear.
struct Optimizer {
    private var memo: [ObjectIdentifier: IRNode] = [:]
    /// How many rewrites were applied (for tests and logging).
    private(set) var rewrites = 0

    mutating func optimize(_ n: IRNode) -> IRNode {
        if let m = memo[ObjectIdentifier(n)] { return m }
        let copy = IRNode(n.op, n.inputs.map { optimize($0) }, extent: n.extent, isOpaque: n.isOpaque)
        let r = simplify(copy)
        memo[ObjectIdentifier(n)] = r
        return r
    }

    private mutating func simplify(_ start: IRNode) -> IRNode {
        var n = start
        while let next = rewrite(n) {
            rewrites += 1
            n = next
        }
        return n
    }

    /// One rewrite of `n` (whose inputs are already simplified), or `nil`.
    private mutating func rewrite(_ n: IRNode) -> IRNode? {
        let child = n.inputs.first
        switch n.op {
        case .premultiply:
            guard let c = child else { return nil }
            if c.isOpaque { return c }
            if case .unpremultiply = c.op { return c.inputs[0] }
        case .unpremultiply:
            guard let c = child else { return nil }
            if c.isOpaque { return c }
            if case .premultiply = c.op { return c.inputs[0] }
        case .setAlphaOne:
            if let c = child, c.isOpaque { return c }
        case .colorKernel(let outer, _, _):
            guard let t = outer.transform, let c = child, case .colorKernel(let inner, _, _) = c.op,
                let s = inner.transform
            else { return nil }
            // Both map transparent to transparent, so the pair is transparent outside the smaller extent; with
            // nested extents that is also where the pair's pixel bounds end.
            let extent: Rect
            if c.extent.contains(n.extent) {
                extent = n.extent
            } else if n.extent.contains(c.extent) {
                extent = c.extent
            } else {
                return nil
            }
            let kernel = ColorKernel(name: "\(n.label)∘\(c.label)", transform: t.composed(after: s))
            return IRNode(
                .colorKernel(kernel, arguments: "", colors: []), c.inputs, extent: extent, isOpaque: n.isOpaque)
        case .colorMatch(let outer):
            guard let c = child, case .colorMatch(let inner) = c.op else { return nil }
            let a = inner.source
            let b = outer.destination
            if a.isColorimetricallyEqual(to: b) && !(a.isExtendedRange && !b.isExtendedRange) {
                return c.inputs[0]
            }
            guard let composed = try? ConverterCache.converter(from: a, to: b) else { return nil }
            return IRNode(unary: .colorMatch(composed), c.inputs[0], isOpaque: n.isOpaque)
        case .translate(let dx, let dy):
            guard let c = child else { return nil }
            if dx == 0 && dy == 0 { return c }
            switch c.op {
            case .translate(let ex, let ey):
                return IRNode(.translate(dx: dx + ex, dy: dy + ey), c.inputs, extent: n.extent, isOpaque: n.isOpaque)
            case .affine(let t, let mode):
                let composed = t.concatenating(AffineTransform(translationX: Double(dx), y: Double(dy)))
                return IRNode(.affine(composed, mode), c.inputs, extent: n.extent, isOpaque: false)
            default: return nil
            }
        case .affine(let t, let mode):
            guard let c = child else { return nil }
            if t.isIntegerTranslation {
                return IRNode(.translate(dx: Int(t.tx), dy: Int(t.ty)), [c], extent: n.extent, isOpaque: c.isOpaque)
            }
            switch c.op {
            case .affine(let inner, let innerMode) where innerMode == mode:
                let composed = inner.concatenating(t)
                if composed.isIntegerTranslation {
                    return IRNode(
                        .translate(dx: Int(composed.tx), dy: Int(composed.ty)), c.inputs, extent: n.extent,
                        isOpaque: c.inputs[0].isOpaque)
                }
                return IRNode(.affine(composed, mode), c.inputs, extent: n.extent, isOpaque: false)
            case .translate(let dx, let dy):
                let composed = AffineTransform(translationX: Double(dx), y: Double(dy)).concatenating(t)
                return IRNode(.affine(composed, mode), c.inputs, extent: n.extent, isOpaque: false)
            default: return nil
            }
        case .crop(let r):
            guard let c = child else { return nil }
            let childBounds = PixelRect(covering: c.extent)
            if r.contains(childBounds) { return c }
            if r.intersection(childBounds).isEmpty { return IRNode(.empty, extent: .null, isOpaque: false) }
            switch c.op {
            case .crop(let inner):
                let both = r.intersection(inner)
                return IRNode(
                    .crop(both), c.inputs, extent: both.rect.intersection(c.inputs[0].extent), isOpaque: n.isOpaque)
            case .translate(let dx, let dy):
                let inner = crop(c.inputs[0], r.offsetBy(dx: -dx, dy: -dy))
                return IRNode(.translate(dx: dx, dy: dy), [inner], extent: n.extent, isOpaque: n.isOpaque)
            case .colorMatch, .premultiply, .unpremultiply, .setAlphaOne:
                let inner = crop(c.inputs[0], r)
                return IRNode(c.op, [inner], extent: n.extent, isOpaque: c.isOpaque)
            case .colorKernel(let k, _, _) where k.inputCount == 1:
                let inner = crop(c.inputs[0], r)
                return IRNode(c.op, [inner], extent: c.extent.intersection(r.rect), isOpaque: c.isOpaque)
            default: return nil
            }
        default: return nil
        }
        return nil
    }

    /// `x` cropped to `r`, simplified.
    private mutating func crop(_ x: IRNode, _ r: PixelRect) -> IRNode {
        simplify(IRNode(.crop(r), [x], extent: x.extent.intersection(r.rect), isOpaque: x.isOpaque))
    }
}
