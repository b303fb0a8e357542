public import LuxCodecs
import LuxPixels
public import LuxScene

extension Scene.Print {
    /// A print of `message` encoded as a `symbology` symbol by ``CodeWriter``: black modules on white, each
    /// `modulePixels` texture pixels wide (so the texture's filtering keeps the edges), inside a white margin of
    /// `margin` modules, covering the square `origin`…`origin + size` (scene units).
    ///
    /// ```swift
    /// let ticket = try Scene.Print.code(.qr, "Lux", origin: SIMD2(0.1, 0.2), size: 0.3)
    /// let scene = Scene.printedCodes([ticket])
    /// ```
    ///
    /// - Throws: ``SceneError/unsupportedImage(_:)`` when the message cannot be encoded in that symbology.
    public static func code(
        _ symbology: Symbology, _ message: String, origin: SIMD2<Double>, size: Double, modulePixels: Int = 8,
        margin: Int = 2
    ) throws(SceneError) -> Scene.Print {
        let m: CodeMatrix
        do {
            m = try CodeWriter(symbology: symbology).matrix(for: Array(message.utf8))
        } catch {
            throw .unsupportedImage("“\(message)” cannot be written as \(symbology.rawValue): \(error)")
        }
        let scale = max(1, modulePixels)
        let side = (max(m.width, m.height) + 2 * margin) * scale
        var gray = [UInt8](repeating: 255, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                let mx = x / scale - margin
                let my = y / scale - margin
                if mx >= 0, my >= 0, mx < m.width, my < m.height, m[mx, my] { gray[y * side + x] = 0 }
            }
        }
        let buffer = PixelBuffer(width: side, height: side, format: .gray8, components: gray, colorSpace: .sRGB)
        return Scene.Print(try SceneImage(buffer: buffer), origin: origin, size: SIMD2(size, size))
    }
}
