import LuxColor
public import LuxRender
import RealModule

/// Stage 7c: saturation and vibrance (scene-referred, before the tone curve), shadow boost and contrast
/// (display-referred, after it), on linear BT.2020 values.
///
/// - Saturation scales the distance from the pixel's luminance: `RGB′ = Y + s·(RGB − Y)`, `s = 1 + saturation`.
/// - Vibrance does the same with a factor that is largest for dull colours and fades for saturated ones:
///   `s·(1 + vibrance·(1 − c)²)`, where `c = (max − min)/max` is 0 for greys and 1 for pure primaries.
/// - Shadow boost lifts the luminance in the same perceptual domain, `q′ = q + 1.5·s·q·(1 − q)²`: strongest
///   around a third of the way up, zero at black and white, monotonic for `s ≤ 1`; colour is scaled with it.
/// - Contrast is an S-curve on the luminance in a perceptual (1/2.4 power) domain, pivoting at display
///   mid-grey and fixed at black and white; colour is scaled by the luminance ratio, so hues do not shift.
public struct ColorAdjustments: Hashable, Sendable {
    /// −1…1, default 0 (−1 is grey, 1 doubles the chroma).
    public var saturation: Float
    /// −1…1, default 0.
    public var vibrance: Float
    /// −1…1, default 0.
    public var contrast: Float
    /// 0…1, default 0.
    public var shadowBoost: Float

    /// BT.2020 luminance weights.
    static let luma: (Float, Float, Float) = (0.2627, 0.6780, 0.0593)

    /// Creates the stage.
    public init(saturation: Float = 0, vibrance: Float = 0, contrast: Float = 0, shadowBoost: Float = 0) {
        self.saturation = saturation
        self.vibrance = vibrance
        self.contrast = contrast
        self.shadowBoost = shadowBoost
    }

    /// The shadow-boost step (identity at 0).
    public func applyingShadowBoost(to image: Image) -> Image {
        guard shadowBoost > 0 else { return image }
        let k = 1.5 * min(shadowBoost, 1)
        let (kr, kg, kb) = Self.luma
        let kernel = ColorKernel(name: "shadowBoost", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                let r = p.red[i]
                let g = p.green[i]
                let b = p.blue[i]
                let y = max(kr * r + kg * g + kb * b, 0)
                let q = min(fastPow(y, 1 / 2.4), 1)
                let q2 = q + k * q * (1 - q) * (1 - q)
                let f = y > 1e-7 && y < 1 ? fastPow(q2, 2.4) / y : 1
                p.red[i] = r * f
                p.green[i] = g * f
                p.blue[i] = b * f
            }
        }
        return image.applying(kernel, arguments: "shadowBoost=\(shadowBoost)")
    }

    /// The saturation and vibrance step (identity at 0, 0).
    public func applyingChroma(to image: Image) -> Image {
        guard saturation != 0 || vibrance != 0 else { return image }
        let s = 1 + min(max(saturation, -1), 1)
        let v = min(max(vibrance, -1), 1)
        let (kr, kg, kb) = Self.luma
        let kernel = ColorKernel(name: "saturation", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                let r = p.red[i]
                let g = p.green[i]
                let b = p.blue[i]
                let y = kr * r + kg * g + kb * b
                let hi = max(r, max(g, b))
                let lo = min(r, min(g, b))
                let c = hi > 1e-9 ? min(max((hi - lo) / hi, 0), 1) : 0
                let f = s * (1 + v * (1 - c) * (1 - c))
                p.red[i] = y + f * (r - y)
                p.green[i] = y + f * (g - y)
                p.blue[i] = y + f * (b - y)
            }
        }
        return image.applying(kernel, arguments: "saturation=\(saturation) vibrance=\(vibrance)")
    }

    /// The contrast step (identity at 0).
    ///
    /// The factor `y′/y` depends on the luminance only: it is tabulated once per step over `√y` (``contrastTable``)
    /// and read with linear interpolation, so the pixel loop has no power function.
    public func applyingContrast(to image: Image) -> Image {
        guard contrast != 0 else { return image }
        let table = Self.contrastTable(contrast)
        let n = Float(table.count - 2)
        let (kr, kg, kb) = Self.luma
        let kernel = ColorKernel(name: "contrast", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            table.withUnsafeBufferPointer { t in
                for i in 0..<row.count {
                    let r = p.red[i]
                    let g = p.green[i]
                    let b = p.blue[i]
                    let y = kr * r + kg * g + kb * b
                    var f: Float = 1
                    if y > 1e-7 && y < 1 {
                        let s = y.squareRoot() * n
                        let k = Int(s)
                        f = t[k] + (t[k + 1] - t[k]) * (s - Float(k))
                    }
                    p.red[i] = r * f
                    p.green[i] = g * f
                    p.blue[i] = b * f
                }
            }
        }
        return image.applying(kernel, arguments: "contrast=\(contrast)")
    }

    /// The contrast factor `y′/y` at `√y = k / 1024` (k = 0…1024, and a repeat of the last entry): an S-curve on
    /// the luminance in the 1/2.4-power domain, `q′ = q + c·q·(1 − q)·(q − 0.46)` with `c = 1.8·contrast`.
    static func contrastTable(_ contrast: Float) -> [Float] {
        let c = Double(min(max(contrast, -1), 1)) * 1.8
        let pivot = 0.46
        var table = (0...1024).map { k -> Float in
            let s = Double(k) / 1024
            let y = s * s
            guard y > 0 else {
                // The limit at black: (1 − c·pivot)^2.4.
                return Float(Double.pow(1 - c * pivot, 2.4))
            }
            let q = min(Double.pow(y, 1 / 2.4), 1)
            let q2 = q + c * q * (1 - q) * (q - pivot)
            return Float(Double.pow(max(q2, 0), 2.4) / y)
        }
        table.append(table[1024])
        return table
    }
}
