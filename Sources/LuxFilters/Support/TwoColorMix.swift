import LuxRender

/// The colouring step shared by two-colour generators: each computes a blend parameter `t` per pixel into the
/// red plane, then this fills the row with the premultiplied working-space mix of colour arguments 0 and 1.
@inline(__always)
func fillTwoColorMix(_ row: ColorKernelRow) {
    var c0 = row.color(0)
    var c1 = row.color(1)
    c0 = SIMD4(c0.x * c0.w, c0.y * c0.w, c0.z * c0.w, c0.w)
    c1 = SIMD4(c1.x * c1.w, c1.y * c1.w, c1.z * c1.w, c1.w)
    let d = c1 - c0
    let p = row.pixels
    let t = p.red
    for i in 0..<row.count {
        let u = t[i]
        p.alpha[i] = c0.w + d.w * u
        p.green[i] = c0.y + d.y * u
        p.blue[i] = c0.z + d.z * u
        t[i] = c0.x + d.x * u
    }
}

/// A two-colour generator of infinite extent whose blend parameter `fill(row, t)` writes into `t`.
func twoColorGenerator(
    _ name: String, arguments: String, colors: [Color],
    _ fill: @escaping @Sendable (ColorKernelRow, UnsafeMutablePointer<Float>) -> Void
) -> Image {
    let kernel = ColorKernel(name: name, inputCount: 0) { row in
        fill(row, row.pixels.red)
        fillTwoColorMix(row)
    }
    return kernel.apply(extent: .infinite, inputs: [], arguments: arguments, colors: colors)
}

/// A soft square wave for stripes and checkerboards: `±1` inside alternating cells of size `width` starting at
/// `origin`, falling linearly to 0 at the cell edges over `(1 − sharpness)/2` of a cell.
@inline(__always)
func squareWave(_ x: Float, origin: Float, inverseWidth: Float, inverseSoftness: Float) -> Float {
    let u = (x - origin) * inverseWidth
    let k = u.rounded(.down)
    let f = u - k
    let edge = min(f, 1 - f)
    let a = inverseSoftness > 0 ? clampFloat(edge * inverseSoftness, 0, 1) : 1
    let half = k * 0.5
    let even = half == half.rounded(.down)
    return even ? a : -a
}
