import LuxColor
import LuxPixels
import LuxRAW
import LuxRender
import Testing

@Suite struct HighlightNeutralityTests {
    /// A dim room (camera RGB 0.05) with a window eight times brighter than the sensor's clip: every photosite
    /// of the window reads the white level, whatever its colour.
    static let window = SyntheticRaw.field(width: 96, height: 64) { x, y in
        (32..<64).contains(x) && (16..<48).contains(y) ? SIMD3(repeating: 8) : SIMD3(repeating: 0.05)
    }

    @Test(
        "A clipped white window develops to R = G = B within 2 levels at every white balance from 2000 to 10000 K, tint −150…+150",
        arguments: [2000.0, 2800, 4000, 5500, 7500, 10000])
    func clippedWindowIsNeutral(temperature: Double) throws {
        let context = RenderContext()
        for tint in [-150.0, -75, 0, 75, 150] {
            var developer = try RAWDeveloper(rawImage: Self.window)
            developer.neutralTemperature = temperature
            developer.neutralTint = tint
            let image: Image
            do {
                image = try developer.outputImage
            } catch .color {
                // A white the camera cannot see (a negative camera neutral): only at the warm, tinted corner.
                #expect(temperature < 3000 && abs(tint) >= 75, "\(temperature) K, tint \(tint) refused")
                continue
            }
            let out = try context.createBuffer(image, format: .rgba8, colorSpace: .sRGB)
            // The window's inside, away from its demosaiced edge.
            for (x, y) in [(40, 24), (48, 32), (56, 40)] {
                let p = out.pixel(x: x, y: y) * 255
                let spread = max(p.x, max(p.y, p.z)) - min(p.x, min(p.y, p.z))
                #expect(spread <= 2, "\(temperature) K, tint \(tint) at (\(x), \(y)): \(p)")
            }
        }
    }
}
