import LuxPixels

/// Top-down region-of-interest propagation over the public node graph.
///
/// Used for printing and ``Image/regionOfInterest(for:in:)``.
///
/// The executor applies the same rules to its compiled programs.
enum RegionOfInterest {
    /// The region each node must produce to render `rect` of `root` (pixel bounds, keyed by node id).
    static func compute(root: Node, rect: Rect) -> [UInt64: PixelRect] {
        var order: [Node] = []
        var seen: Set<UInt64> = []
        func visit(_ n: Node) {
            guard seen.insert(n.id).inserted else { return }
            for i in n.inputs { visit(i) }
            order.append(n)
        }
        visit(root)
        var requests: [UInt64: PixelRect] = [root.id: PixelRect(enclosing: rect)]
        var result: [UInt64: PixelRect] = [:]
        for n in order.reversed() {
            let request = requests[n.id] ?? .empty
            let own = request.intersection(PixelRect(enclosing: n.extent))
            result[n.id] = own
            guard !own.isEmpty else { continue }
            for (i, input) in n.inputs.enumerated() {
                let r = inputRequest(n, index: i, own)
                requests[input.id] = (requests[input.id] ?? .empty).union(r)
            }
        }
        return result
    }

    /// The region of input `index` that `node` needs to produce `rect`.
    static func inputRequest(_ node: Node, index: Int, _ rect: PixelRect) -> PixelRect {
        switch node.op {
        case .source, .constant, .empty:
            return .empty
        case .colorKernel, .matchToWorking, .matchFromWorking, .premultiply, .unpremultiply, .setAlphaOne,
            .intermediate, .sampling:
            return rect
        case .warpKernel(_, _, _, let roi):
            return PixelRect(enclosing: roi(rect.rect)).insetBy(dx: -1, dy: -1)
        case .generalKernel(_, _, _, let roi):
            return PixelRect(enclosing: roi(index, rect.rect))
        case .processor(let p):
            return PixelRect(enclosing: p.roi(index, rect.rect))
        case .crop(let c):
            return rect.intersection(PixelRect(covering: c))
        case .transform(let t, let mode):
            return affineSourceRegion(t, rect, mode)
        case .clamp(let e):
            return clampRegion(rect, into: PixelRect(covering: e))
        }
    }

    /// The input pixels that sampling `transform` over the output pixels `rect` reads.
    static func affineSourceRegion(_ t: AffineTransform, _ rect: PixelRect, _ mode: SamplingMode) -> PixelRect {
        if rect.isEmpty { return .empty }
        if rect.isInfinite { return .infinite }
        guard let inv = t.inverted else { return .empty }
        let xs = [Double(rect.minX) + 0.5, Double(rect.maxX) - 0.5]
        let ys = [Double(rect.minY) + 0.5, Double(rect.maxY) - 0.5]
        var lo = (x: Double.infinity, y: Double.infinity)
        var hi = (x: -Double.infinity, y: -Double.infinity)
        for x in xs {
            for y in ys {
                let p = inv.apply(to: Point(x: x, y: y))
                lo = (min(lo.x, p.x), min(lo.y, p.y))
                hi = (max(hi.x, p.x), max(hi.y, p.y))
            }
        }
        // Linear reads the pixels whose centres are within one pixel; nearest the pixel containing the point.
        // One extra pixel on each side absorbs Float rounding in the sampling loop.
        let (a, b): (Double, Double) = mode == .linear ? (-0.5, 0.5) : (0, 0)
        let r = Rect(
            minX: (lo.x + a).rounded(.down) - 1, minY: (lo.y + a).rounded(.down) - 1,
            maxX: (hi.x + b).rounded(.down) + 2, maxY: (hi.y + b).rounded(.down) + 2)
        return PixelRect(enclosing: r)
    }

    /// `rect` moved into `bounds` (at least one pixel), the pixels a clamp reads.
    static func clampRegion(_ rect: PixelRect, into bounds: PixelRect) -> PixelRect {
        if rect.isEmpty || bounds.isEmpty { return .empty }
        func c(_ v: Int, _ lo: Int, _ hi: Int) -> Int { min(max(v, lo), hi) }
        return PixelRect(
            minX: c(rect.minX, bounds.minX, bounds.maxX - 1), minY: c(rect.minY, bounds.minY, bounds.maxY - 1),
            maxX: c(rect.maxX, bounds.minX + 1, bounds.maxX), maxY: c(rect.maxY, bounds.minY + 1, bounds.maxY))
    }
}
