public import LuxCodecs
import LuxColor
public import LuxRender

/// Stage 6c: a file's ProfileGainTableMap (iPhone ProRAW's local tone mapping), after the colour transform and
/// BaselineExposure, before the user's exposure and the tone curve.
///
/// The gain is a scalar per pixel, so applying it to the pipeline's linear Rec. 2020 values equals applying it in
/// the RIMM space the DNG specification names; only the table input is computed in RIMM (linear ProPhoto RGB, D50):
/// `clamp((R, G, B, min, max) · MapInputWeights, 0, 1)` of the pixel converted there. Positions are relative to the
/// image the stage sees — the active area, at any reduction, before cropping — with pixel centres at half-pixel
/// offsets, as the specification asks.
public struct GainTableMapStage: Hashable, Sendable {
    /// The map.
    public var map: ProfileGainTableMap

    /// Creates the stage.
    public init(map: ProfileGainTableMap) { self.map = map }

    /// Linear BT.2020 (D65) → linear ProPhoto RGB (D50), row by row.
    static let toRIMM: [Float] = {
        let fromXYZ = ColorSpace.itur2020.linearized(name: "Linear Rec. 2020").matrixToXYZ ?? .identity
        let adapt = ChromaticAdaptation.bradford(from: WhitePoint.d65.xyz(), to: WhitePoint.iccD50XYZ)
        // ProPhoto (ROMM) primaries, D50 white: XYZ → RGB is the inverse of their XYZ matrix.
        let prophoto = Matrix3x3(rows: [
            [0.7976749, 0.1351917, 0.0313534], [0.2880402, 0.7118741, 0.0000857],
            [0.0, 0.0, 0.8252100],
        ])
        let m = (prophoto.inverse ?? .identity) * adapt * fromXYZ
        return m.entries.map(Float.init)
    }()

    /// Applies the gains to an image whose extent starts at (0, 0).
    public func apply(to image: Image) -> Image {
        let map = map
        let w = image.extent.width
        let h = image.extent.height
        let m = Self.toRIMM
        let weights = map.inputWeights + [Float](repeating: 0, count: max(0, 5 - map.inputWeights.count))
        let kernel = ColorKernel(name: "profileGainTableMap", alphaHandling: .premultiplied, preservesAlpha: true) {
            row in
            let p = row.pixels
            let v = (Double(row.y) + 0.5) / h
            for i in 0..<row.count {
                let r = p.red[i]
                let g = p.green[i]
                let b = p.blue[i]
                let pr = m[0] * r + m[1] * g + m[2] * b
                let pg = m[3] * r + m[4] * g + m[5] * b
                let pb = m[6] * r + m[7] * g + m[8] * b
                let input =
                    weights[0] * pr + weights[1] * pg + weights[2] * pb + weights[3] * min(pr, min(pg, pb))
                    + weights[4] * max(pr, max(pg, pb))
                let gain = map.gain(u: (Double(row.x + i) + 0.5) / w, v: v, input: input)
                p.red[i] = r * gain
                p.green[i] = g * gain
                p.blue[i] = b * gain
            }
        }
        return image.applying(kernel, arguments: "map=\(map.hashValue) size=\(w)x\(h)")
    }
}
