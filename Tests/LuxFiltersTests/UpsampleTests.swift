import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

@Suite struct EdgePreserveUpsampleTests {
    /// A guide with a sharp vertical edge at x = 37 (dark left, light right), 64×48.
    static func guide() -> Image {
        var c: [Float] = []
        for _ in 0..<48 {
            for x in 0..<64 {
                let v: Float = x < 37 ? 0.05 : 0.9
                c += [v, v, v, 1]
            }
        }
        return Image(buffer: PixelBuffer(width: 64, height: 48, format: .rgbaFloat, components: c))
    }

    @Test("a constant small image upsamples to that constant over the guide's extent")
    func constant() throws {
        let small = Image(color: Color(red: 0.3, green: 0.6, blue: 0.2, colorSpace: .linearSRGB))
            .cropped(to: Rect(width: 8, height: 6))
        let out = Self.guide().edgePreserveUpsample(small)
        #expect(out.extent == Rect(width: 64, height: 48))
        let v = try renderFloat(out)
        for p in 0..<(64 * 48) {
            #expect(abs(v[4 * p] - 0.3) < 1e-5 && abs(v[4 * p + 1] - 0.6) < 1e-5 && abs(v[4 * p + 2] - 0.2) < 1e-5)
        }
    }

    @Test("the guide's edge stays sharp where bilinear upsampling smears it")
    func followsEdges() throws {
        // The small image: the guide's values averaged over 8×8 blocks (the edge falls inside block column 4).
        var c: [Float] = []
        for _ in 0..<6 {
            for bx in 0..<8 {
                let dark = max(0, min(8, 37 - 8 * bx))
                let v = (Float(dark) * 0.05 + Float(8 - dark) * 0.9) / 8
                c += [v, v, v, 1]
            }
        }
        let small = Image(buffer: PixelBuffer(width: 8, height: 6, format: .rgbaFloat, components: c))
        let out = try renderFloat(Self.guide().edgePreserveUpsample(small, spatialSigma: 1, lumaSigma: 0.1))
        let bilinear = try renderFloat(
            small.clampedToExtent().transformed(by: AffineTransform(scaleX: 8, y: 8)).cropped(
                to: Rect(width: 64, height: 48)))
        // Two pixels either side of the edge, in the middle row.
        let row = 24 * 64
        let ours = (out[4 * (row + 35)], out[4 * (row + 38)])
        let theirs = (bilinear[4 * (row + 35)], bilinear[4 * (row + 38)])
        // The light side takes the light value at once; the dark side keeps some of the mixed block's value (the
        // small pixel straddling the edge has a dark centre), but less than bilinear interpolation gives.
        #expect(abs(ours.1 - 0.9) < 0.01 && ours.0 < theirs.0, "\(ours) vs \(theirs)")
        #expect(ours.1 - ours.0 > 2 * (theirs.1 - theirs.0), "edge step \(ours) vs bilinear \(theirs)")
    }

    @Test("the seed's case: a 6×7 input and a larger guide give the guide's extent, finite values")
    func seedShape() throws {
        let small = Image(buffer: randomBuffer(width: 6, height: 7, seed: 4))
        let guide = Image(buffer: randomBuffer(width: 256, height: 192, seed: 5))
        let out = guide.edgePreserveUpsample(small)
        #expect(out.extent == guide.extent)
        let v = try renderFloat(out, Rect(x: 100, y: 80, width: 40, height: 30))
        #expect(v.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
    }
}
