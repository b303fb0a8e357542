import LuxRender
import RealModule

/// The pieces shared by the light generators (StarShine, Sunbeams, LenticularHalo).
enum Flare {
    /// The angular frequencies, phases and drift speeds (turns per unit of time) of the striation pattern: whole
    /// frequencies, so the pattern closes up around the circle.
    static let frequencies: SIMD4<Float> = [7, 11, 17, 23]
    static let phases: SIMD4<Float> = [0.3, 1.9, 4.1, 2.6]
    static let speeds: SIMD4<Float> = [1, -1.3, 0.7, -0.5]

    /// The striation pattern at polar angle `phi` and `time`, in 0…1: the mean of four cosines of the angle, raised
    /// to `contrast`: `(½ + ½·mean(cos(mₖ·φ + pₖ + 2π·vₖ·time)))^contrast`.
    @inline(__always)
    static func striation(_ phi: Float, time: Float, contrast: Float) -> Float {
        let a = frequencies * phi + phases + 2 * Float.pi * speeds * time
        let n = (Float.cos(a.x) + Float.cos(a.y) + Float.cos(a.z) + Float.cos(a.w)) / 4
        let u = max(0.5 + 0.5 * n, 0)
        return u > 0 ? Float.exp(contrast * Float.log(u)) : 0
    }

    /// Fills the row with colour argument 0 times the intensity held in the red plane: premultiplied
    /// `(c·I, min(I·alpha, 1))`, so light adds over a dark background and can exceed 1.
    @inline(__always)
    static func fillLight(_ row: ColorKernelRow) {
        let c = row.color(0)
        let p = row.pixels
        for i in 0..<row.count {
            let intensity = p.red[i]
            p.red[i] = c.x * c.w * intensity
            p.green[i] = c.y * c.w * intensity
            p.blue[i] = c.z * c.w * intensity
            p.alpha[i] = min(c.w * intensity, 1)
        }
    }
}
