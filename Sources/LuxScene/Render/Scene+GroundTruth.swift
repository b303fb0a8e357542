public import LuxColor
public import LuxPixels
import RealModule

extension Scene {
    /// The scene as an ideal eye would see it: sharp (a pinhole), at one instant, white-balanced to the
    /// output space's white, scaled so a white diffuser under the scene's main light is 1.0.
    ///
    /// Values above 1 (bright lights, the sky through a window) are kept in the returned float buffer.
    ///
    /// - Parameters:
    ///   - width: Output width in pixels (the height follows the 4:3 frame unless given).
    ///   - height: Output height in pixels.
    ///   - time: The instant, in seconds.
    ///   - colorSpace: The output space (its white point is the adaptation target).
    ///   - exposure: Extra exposure in stops (+1 doubles every value).
    /// - Returns: An `rgbaFloat` buffer tagged with `colorSpace`.
    /// - Throws: ``SceneError/invalidRequest(_:)`` for an invalid size.
    public func groundTruth(
        width: Int, height: Int? = nil, time: Double = 0, colorSpace: ColorSpace = .sRGB, exposure: Double = 0
    ) throws(SceneError) -> PixelBuffer {
        let h = height ?? max(1, Int((Double(width) * Scene.frameHeight).rounded()))
        let request = RenderRequest(width: width, height: h, exposureStart: time)
        let xyz = try SceneRenderer(scene: self).render(request)
        let white = light.illuminant.chromaticity
        let adapt = ChromaticAdaptation.bradford(from: white, to: colorSpace.whitePoint)
        let linear = colorSpace.linearized().withExtendedRange(true)
        guard let toRGB = linear.matrixToXYZ?.inverse else {
            throw .invalidRequest("\(colorSpace) has no RGB matrix")
        }
        let scale = Double.exp2(exposure) / (light.illuminance / Double.pi)
        let m = (scale * (toRGB * adapt)).entries.map(Float.init)
        var out = PixelBuffer(width: width, height: h, format: .rgbaFloat, colorSpace: linear)
        out.withUnsafeMutablePlane { plane in
            for y in 0..<h {
                let row = plane.row(y, as: Float.self)
                let x0 = xyz.storage.row(0, y)
                let x1 = xyz.storage.row(1, y)
                let x2 = xyz.storage.row(2, y)
                for x in 0..<width {
                    let a = x0[x]
                    let b = x1[x]
                    let c = x2[x]
                    row[4 * x] = m[0] * a + m[1] * b + m[2] * c
                    row[4 * x + 1] = m[3] * a + m[4] * b + m[5] * c
                    row[4 * x + 2] = m[6] * a + m[7] * b + m[8] * c
                    row[4 * x + 3] = 1
                }
            }
        }
        if colorSpace.isLinear { return out }
        do {
            return try out.matchingColors(to: colorSpace.withExtendedRange(true))
        } catch {
            throw .invalidRequest("cannot convert to \(colorSpace): \(error)")
        }
    }
}
