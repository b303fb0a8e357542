import LuxPixels
import LuxRender
import RealModule

/// The page rolled over a cylinder that ``Filters/PageCurlTransition`` and ``Filters/PageCurlWithShadowTransition``
/// draw (their documentation gives the geometry).
enum PageCurl {
    /// The shadow the rolled page casts on the target.
    struct Shadow: Sendable {
        /// The width of the shadow behind the cylinder, in pixels.
        var width: Double
        /// The darkening at the cylinder's edge.
        var amount: Double
        /// Where the shadow may fall; empty: anywhere.
        var extent: Rect
    }

    /// The page's rectangle, for testing where a page point lies.
    struct Frame: Sendable {
        let minX: Float
        let minY: Float
        let maxX: Float
        let maxY: Float

        init(_ rect: Rect) {
            (minX, minY, maxX, maxY) = (Float(rect.minX), Float(rect.minY), Float(rect.maxX), Float(rect.maxY))
        }

        /// Whether the point `shift` along the sweep's direction from `(x, y)` lies on the page.
        @inline(__always)
        func contains(_ x: Float, _ y: Float, shift: Float, _ sweep: TransitionMix.Sweep) -> Bool {
            let px = x + shift * sweep.ux
            let py = y + shift * sweep.uy
            return px >= minX && px <= maxX && py >= minY && py <= maxY
        }
    }

    /// The curl of `image` over `target`, the inputs as the filters document.
    static func apply(
        _ image: Image, target: Image, backside: Image, shading: Image, extent page: Rect, time: Double, angle: Double,
        radius: Double, shadow: Shadow?, name: String
    ) -> Image {
        let sweep = TransitionMix.Sweep(across: page, angle: angle)
        let r = max(radius, 0.01)
        let w = max(shadow?.width ?? 0, 0)
        let f = Float(min(max(time, 0), 1) * (sweep.length + r + w))
        let rr = Float(r)
        let hasBack = !backside.extent.isEmpty
        let sh = shading.extent
        let lit = !sh.isEmpty && !sh.isInfinite
        let (sx, sy, hx, hy) = (Float(sh.midX), Float(sh.midY), Float(sh.width / 2), Float(sh.height / 2))
        let frame = Frame(page)
        let amount = Float(shadow?.amount ?? 0)
        let shadowWidth = Float(w)
        let fall = shadow?.extent ?? .zero
        let anywhere = fall.isEmpty
        let (fx0, fy0, fx1, fy1) = (Float(fall.minX), Float(fall.minY), Float(fall.maxX), Float(fall.maxY))
        let kernel = GeneralKernel(name: name, inputCount: 4) { row in
            let source = row.sampler(0)
            let goal = row.sampler(1)
            let back = row.sampler(2)
            let light = row.sampler(3)
            let y = Float(row.y) + 0.5
            for i in 0..<row.count {
                let x = Float(row.x + i) + 0.5
                let u = sweep.distance(x, y)
                let d = f - u
                // The page point seen here (`u₀` along the direction; NaN: none), whether its back shows, and the
                // surface's normal along the direction.
                var u0 = Float.nan
                var isBack = false
                var onPage = false
                var normalAlong: Float = 0
                var rolled = false
                if d >= 0, d <= rr {
                    let a = Float.asin(d / rr)
                    let upper = f - rr * (Float.pi - a)
                    let lower = f - rr * a
                    rolled = true
                    if frame.contains(x, y, shift: upper - u, sweep) {
                        (u0, isBack, normalAlong) = (upper, true, -d / rr)
                    } else if frame.contains(x, y, shift: lower - u, sweep) {
                        (u0, normalAlong) = (lower, d / rr)
                    }
                } else if d < 0 {
                    let over = 2 * f - Float.pi * rr - u
                    if frame.contains(x, y, shift: over - u, sweep) {
                        (u0, isBack, rolled) = (over, true, true)
                        onPage = frame.contains(x, y, shift: 0, sweep)
                    } else if frame.contains(x, y, shift: 0, sweep) {
                        u0 = u
                    }
                }
                let px = x + (u0 - u) * sweep.ux
                let py = y + (u0 - u) * sweep.uy
                var after = goal.pixel(x: row.x + i, y: row.y)
                guard !u0.isNaN else {
                    // The target, in the rolled page's shadow when one is cast.
                    let e = d - rr
                    if amount > 0, e >= 0, e < shadowWidth, anywhere || (x >= fx0 && x < fx1 && y >= fy0 && y < fy1) {
                        let k = 1 - amount * (1 - e / shadowWidth)
                        after = SIMD4(after.x * k, after.y * k, after.z * k, after.w)
                    }
                    row.store(after, at: i)
                    continue
                }
                var sheet =
                    isBack && hasBack
                    ? back.sample(x: px, y: py)
                    : rolled
                        ? source.sample(x: px, y: py)
                        : source.pixel(x: row.x + i, y: row.y)
                if lit, rolled {
                    let shade = light.sample(x: sx + normalAlong * sweep.ux * hx, y: sy + normalAlong * sweep.uy * hy)
                    if shade.w > 0 {
                        let c = SIMD4(shade.x / shade.w, shade.y / shade.w, shade.z / shade.w, 1)
                        sheet *= c
                    }
                }
                // Under the part lying upside down is the page at rest, when the page reaches there.
                if onPage {
                    let rest = source.pixel(x: row.x + i, y: row.y)
                    after = rest + after * (1 - rest.w)
                }
                row.store(sheet + after * (1 - sheet.w), at: i)
            }
        }
        let arguments =
            "extent=\(page) time=\(time) angle=\(angle) radius=\(radius) back=\(hasBack) lit=\(lit)"
            + (shadow.map { " shadow=\($0.width),\($0.amount),\($0.extent)" } ?? "")
        return kernel.apply(
            extent: image.extent.union(target.extent),
            inputs: [image, target, hasBack ? backside : image, lit ? shading : image], arguments: arguments
        ) { index, rect in
            switch index {
            case 1: rect
            case 3: lit ? sh : rect
            default: pageRegion(for: rect, page: page, angle: angle, line: Double(f), radius: r)
            }
        }
    }

    /// The page points that the output `rect` can show: those at rest under it, the rolled ones (`u₀` within `π·R`
    /// before the line) when it meets the cylinder, and the mirror images of its points past the line.
    static func pageRegion(for rect: Rect, page: Rect, angle: Double, line f: Double, radius r: Double) -> Rect {
        let (ux, uy) = (Double.cos(angle), Double.sin(angle))
        let start = Double(TransitionMix.Sweep(across: page, angle: angle).start)
        let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)]
        let along = corners.map { $0.0 * ux + $0.1 * uy - start }
        let across = corners.map { -$0.0 * uy + $0.1 * ux }
        let (uMin, uMax) = (along.min()!, along.max()!)
        var low = Double.infinity
        var high = -Double.infinity
        if uMax >= f { (low, high) = (max(uMin, f), uMax) }
        if uMax >= f - r, uMin <= f { (low, high) = (min(low, f - Double.pi * r), max(high, f)) }
        if uMax > f {
            let mirror = 2 * f - Double.pi * r
            (low, high) = (min(low, mirror - uMax), max(high, mirror - max(uMin, f)))
        }
        guard low <= high else { return .zero }
        var xs: [Double] = []
        var ys: [Double] = []
        for u in [low, high] {
            for v in [across.min()!, across.max()!] {
                xs.append((u + start) * ux - v * uy)
                ys.append((u + start) * uy + v * ux)
            }
        }
        let box = Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        return box.insetBy(dx: -2, dy: -2).intersection(page.insetBy(dx: -1, dy: -1))
    }
}
