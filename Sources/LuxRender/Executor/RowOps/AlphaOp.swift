import LuxPixels

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
