import LuxColor
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
}

/// Colour arguments copied to memory kernels can read without reference counting (`nil` when empty).
func colorTable(_ colors: [SIMD4<Float>]) -> UnsafeMutablePointer<SIMD4<Float>>? {
    if colors.isEmpty { return nil }
    let p = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: colors.count)
    p.initialize(from: colors, count: colors.count)
    return p
}

// MARK: Leaves

/// Reads a source buffer.
final class LoadSourceOp: RowOp {
    let buffer: PixelBuffer
    let base: UnsafeRawPointer
    let bytesPerRow: Int
    let format: PixelFormat
    let bytesPerPixel: Int
    let sourceIndex: Int

    init(_ ref: SourceRef, bounds: PixelRect, sourceIndex: Int) {
        buffer = ref.buffer
        (base, bytesPerRow) = ref.buffer.withUnsafePlane { ($0.baseAddress, $0.bytesPerRow) }
        format = ref.buffer.format
        bytesPerPixel = format.bytesPerPixel()
        self.sourceIndex = sourceIndex
        super.init(
            bounds: bounds.intersection(PixelRect(x: 0, y: 0, width: ref.buffer.width, height: ref.buffer.height)))
    }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        PixelIO.load(
            format, from: base + y * bytesPerRow + x * bytesPerPixel, count: n, into: dst, scratch: env.worker.scratch)
        env.worker.stats.sourcePixelsRead += n
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        sources[sourceIndex] = sources[sourceIndex].union(r)
    }

    override var name: String { "load_\(format.shortName)_\(buffer.width)x\(buffer.height)" }
}

/// An 8-bit source colour-matched while loading (decode by table, one pass).
final class LoadMatch8Op: RowOp {
    let load: LoadSourceOp
    let converter: ColorConverter
    let label: String

    init(_ load: LoadSourceOp, converter: ColorConverter, label: String) {
        self.load = load
        self.converter = converter
        self.label = label
        super.init(bounds: load.bounds)
    }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let src = (load.base + y * load.bytesPerRow + x * 4).assumingMemoryBound(to: UInt8.self)
        converter.convert(rgba8: src, red: dst.red, green: dst.green, blue: dst.blue, alpha: dst.alpha, count: n)
        env.worker.stats.sourcePixelsRead += n
    }

    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        load.collectInside(r, &rois, &sources)
    }

    override var name: String { "\(label)(\(load.name))" }
}

/// A constant colour.
final class ConstantOp: RowOp {
    let value: SIMD4<Float>
    init(_ value: SIMD4<Float>, bounds: PixelRect) {
        self.value = value
        super.init(bounds: bounds)
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        dst.fill(0..<n, with: value)
    }
    override var name: String { "constant" }
}

/// Reads a materialised slot (an intermediate or a processor's output).
final class SlotReadOp: RowOp {
    let slot: Int
    init(slot: Int, bounds: PixelRect) {
        self.slot = slot
        super.init(bounds: bounds)
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let s = env.slots[slot]
        let r = s.region
        guard y >= r.minY, y < r.maxY else {
            dst.zero(0..<n)
            return
        }
        let x0 = max(x, r.minX)
        let x1 = min(x + n, r.maxX)
        guard x0 < x1 else {
            dst.zero(0..<n)
            return
        }
        dst.zero(0..<(x0 - x))
        dst.zero((x1 - x)..<n)
        let inside = dst.advanced(by: x0 - x, count: x1 - x0)
        if s.layout == .planarRows {
            let from = s.planes(x: x0, y: y, count: x1 - x0)
            if from.red != inside.red { inside.update(from: from) }  // equal: a program running in the slot's rows
            return
        }
        PixelIO.load(s.format, from: s.pointer(x: x0, y: y), count: x1 - x0, into: inside, scratch: env.worker.scratch)
    }
    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        rois[slot] = rois[slot].union(r)
    }
    override var name: String { "slot\(slot)" }
}

// MARK: Per-pixel

/// A user colour kernel.
final class KernelOp: RowOp {
    let kernel: ColorKernel
    let label: String
    let colors: UnsafeMutablePointer<SIMD4<Float>>?

    init(_ kernel: ColorKernel, label: String, colors: [SIMD4<Float>], bounds: PixelRect, children: [RowOp]) {
        self.kernel = kernel
        self.label = label
        self.colors = colorTable(colors)
        super.init(bounds: bounds, children: children)
    }

    deinit { colors?.deallocate() }

    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let k = children.count
        if k > 0 { evaluateChild(0, y, x, n, dst, env) }
        let chunk = env.worker.chunk
        if k > 1 {
            let base = env.worker.push(k - 1)
            for i in 1..<k {
                evaluateChild(i, y, x, n, PlanarPixels(base: base + (i - 1) * 4 * chunk, stride: chunk, count: n), env)
            }
            kernel.body(
                ColorKernelRow(
                    count: n, x: x, y: y, pixels: dst, inputBase: base, planeStride: chunk, colorBase: colors))
            env.worker.pop(k - 1)
        } else {
            kernel.body(
                ColorKernelRow(count: n, x: x, y: y, pixels: dst, inputBase: nil, planeStride: chunk, colorBase: colors)
            )
        }
    }

    override var registerDemand: Int {
        var d = children.first?.registerDemand ?? 0
        for (i, c) in children.enumerated() where i > 0 { d = max(d, i + c.registerDemand) }
        return max(d, children.count - 1)
    }

    override var name: String { label }
}

/// A colour match (on straight colour).
final class MatchOp: RowOp {
    let converter: ColorConverter
    let label: String
    init(_ converter: ColorConverter, label: String, child: RowOp, bounds: PixelRect) {
        self.converter = converter
        self.label = label
        super.init(bounds: bounds, children: [child])
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        evaluateChild(0, y, x, n, dst, env)
        converter.convertInPlace(red: dst.red, green: dst.green, blue: dst.blue, count: n)
    }
    override var name: String { label }
}

/// Premultiplies, unpremultiplies or sets alpha to one.
final class AlphaOp: RowOp {
    enum Kind { case premultiply, unpremultiply, alphaOne }
    let kind: Kind
    init(_ kind: Kind, child: RowOp, bounds: PixelRect) {
        self.kind = kind
        super.init(bounds: bounds, children: [child])
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        evaluateChild(0, y, x, n, dst, env)
        switch kind {
        case .premultiply: if !Self.isOpaque(dst.alpha, n) { Self.premultiply(dst, n) }
        case .unpremultiply: if !Self.isOpaque(dst.alpha, n) { Self.unpremultiply(dst, n) }
        case .alphaOne: dst.alpha.update(repeating: 1, count: n)
        }
    }

    /// Whether every alpha is exactly 1 (then both conversions are identities and are skipped).
    ///
    /// A vectorised OR over the alpha plane: a quarter of the cost of converting.
    @inline(never)
    static func isOpaque(_ a: UnsafePointer<Float>, _ n: Int) -> Bool {
        var acc: UInt32 = 0
        for i in 0..<n { acc |= a[i].bitPattern ^ 0x3F80_0000 }
        return acc == 0
    }

    @inline(never)
    static func premultiply(_ p: PlanarPixels, _ n: Int) {
        let r = p.red
        let g = p.green
        let b = p.blue
        let a = p.alpha
        for i in 0..<n {
            r[i] *= a[i]
            g[i] *= a[i]
            b[i] *= a[i]
        }
    }

    @inline(never)
    static func unpremultiply(_ p: PlanarPixels, _ n: Int) {
        let r = p.red
        let g = p.green
        let b = p.blue
        let a = p.alpha
        for i in 0..<n {
            let inv = a[i] != 0 ? 1 / a[i] : 0
            r[i] *= inv
            g[i] *= inv
            b[i] *= inv
        }
    }

    override var name: String {
        switch kind {
        case .premultiply: "premultiply"
        case .unpremultiply: "unpremultiply"
        case .alphaOne: "alpha_one"
        }
    }
}

// MARK: Geometry without resampling

/// Passes spans through; its bounds (a crop rectangle) do the work.
final class CropOp: RowOp {
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        evaluateChild(0, y, x, n, dst, env)
    }
    override var name: String { "crop\(bounds)" }
}

/// A whole-pixel translation.
final class TranslateOp: RowOp {
    let dx: Int
    let dy: Int
    init(dx: Int, dy: Int, child: RowOp, bounds: PixelRect) {
        self.dx = dx
        self.dy = dy
        super.init(bounds: bounds, children: [child])
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        evaluateChild(0, y - dy, x - dx, n, dst, env)
    }
    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        children[0].collect(r.offsetBy(dx: -dx, dy: -dy), &rois, &sources)
    }
    override var name: String { "translate[\(dx) \(dy)]" }
}

/// Repeats the edge pixels of `edge` outwards.
final class ClampOp: RowOp {
    let edge: PixelRect
    init(edge: PixelRect, child: RowOp, bounds: PixelRect) {
        self.edge = edge
        super.init(bounds: bounds, children: [child])
    }
    override func produce(_ y: Int, _ x: Int, _ n: Int, _ dst: PlanarPixels, _ env: RowEnv) {
        let e = edge
        if e.isEmpty {
            dst.zero(0..<n)
            return
        }
        let yy = min(max(y, e.minY), e.maxY - 1)
        let a = max(x, e.minX)
        let b = min(x + n, e.maxX)
        if a < b {
            evaluateChild(0, yy, a, b - a, dst.advanced(by: a - x, count: b - a), env)
            if a > x { dst.fill(0..<(a - x), with: dst[a - x]) }
            if b < x + n { dst.fill((b - x)..<n, with: dst[b - x - 1]) }
        } else {
            let ex = x + n <= e.minX ? e.minX : e.maxX - 1
            evaluateChild(0, yy, ex, 1, dst, env)
            dst.fill(1..<n, with: dst[0])
        }
    }
    override func collectInside(_ r: PixelRect, _ rois: inout [PixelRect], _ sources: inout [PixelRect]) {
        children[0].collect(RegionOfInterest.clampRegion(r, into: edge), &rois, &sources)
    }
    override var name: String { "clamp\(edge)" }
}
