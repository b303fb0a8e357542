import LuxPixels

/// One node of a fused program: produces a planar row span, usually by transforming what its children produce.
///
/// A program is a tree of these evaluated once per row span, so the per-pixel work of a whole chain happens while the
/// span sits in L1 cache.
class RowOp {
    /// Pixels outside these bounds are transparent; the op is only asked for spans inside them.
    let bounds: PixelRect
    /// The inputs (owning references).
    let children: [RowOp]
    /// The same inputs unretained, for calls on the hot path: reading an object out of `children` retains
    /// and releases it, and two workers doing that to the same op contend on its reference count.
    private let links: UnsafeMutablePointer<Unmanaged<RowOp>>

    init(bounds: PixelRect, children: [RowOp] = []) {
        self.bounds = bounds
        self.children = children
        links = .allocate(capacity: max(children.count, 1))
        for (i, c) in children.enumerated() { (links + i).initialize(to: .passUnretained(c)) }
    }

    deinit { links.deallocate() }

    /// Evaluates input `i` (see ``evaluate(_:_:_:_:_:)``) without reference counting.
    @inline(__always)
    final func evaluateChild(_ i: Int, _ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        links[i]._withUnsafeGuaranteedRef { $0.evaluate(y, x, n, dst, env) }
    }

    /// Evaluates `n` pixels from `(x, y)` into `dst`, transparent outside ``bounds``.
    @inline(__always)
    final func evaluate(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let b = bounds
        if y < b.minY || y >= b.maxY || x + n <= b.minX || x >= b.maxX {
            dst.zero(0..<n)
            return
        }
        if x >= b.minX && x + n <= b.maxX {
            produce(y, x, n, dst, env)
            return
        }
        let x0 = max(x, b.minX)
        let x1 = min(x + n, b.maxX)
        dst.zero(0..<(x0 - x))
        dst.zero((x1 - x)..<n)
        produce(y, x0, x1 - x0, dst.advanced(by: x0 - x, count: x1 - x0), env)
    }

    /// Produces a span that lies inside ``bounds``.
    func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        preconditionFailure("abstract")
    }

    /// Adds to `rois` the region of each slot needed to produce `request`.
    final func collect(_ request: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        let r = request.intersection(bounds)
        if r.isEmpty { return }
        collectInside(r, &rois, &sources)
    }

    func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        for c in children { c.collect(r, &rois, &sources) }
    }

    /// Registers needed beyond the destination while evaluating.
    var registerDemand: Int { children.map(\.registerDemand).max() ?? 0 }

    /// Program-print name.
    var name: String { "op" }

    /// `name(child, child)` — the fused program as text.
    var expression: String {
        children.isEmpty ? name : "\(name)(\(children.map(\.expression).joined(separator: ",")))"
    }

    /// Colour arguments copied to memory kernels can read without reference counting (`nil` when empty).
    static func colorTable(_ colors: [SIMD4<Float>]) -> UnsafeMutablePointer<SIMD4<Float>>? {
        if colors.isEmpty { return nil }
        let p = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: colors.count)
        p.initialize(from: colors, count: colors.count)
        return p
    }
}
