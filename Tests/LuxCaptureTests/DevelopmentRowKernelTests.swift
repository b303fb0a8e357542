import CLuxKernels
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCapture

/// The processor's fused development rows (`FusedDevelopment.developRow` over CLuxKernels' `lux_capture_load`,
/// `lux_capture_demosaic` and `lux_capture_encode`) against their definition written as scalar Swift, at every
/// vector width of ``KernelLanes/available`` (forced on this thread through `lux_force_lanes`): the same bits.
@Suite(.serialized) struct DevelopmentRowKernelTests {
    static let black: Float = 512
    static let white: Float = 16383

    /// A Bayer frame of pseudo-random levels over the whole range (some below black), with a clipped block so that
    /// rows near it take the desaturation and values past the roll-off's start.
    static func frame(width w: Int, height h: Int, pattern: CFAPattern) -> PixelBuffer {
        var raw = PixelBuffer(width: w, height: h, format: .bayer14(pattern))
        var random = SplitMix(seed: 91)
        raw.withUnsafeMutablePlane { plane in
            for y in 0..<h {
                let row = plane.row(y, as: UInt16.self)
                for x in 0..<w {
                    let level = Int(random.next() >> 48) % 17_000 + 400
                    let clipped = (w / 3..<w / 2).contains(x) && (h / 3..<h / 2).contains(y)
                    row[x] = UInt16(clipped ? Int(white) : min(level, Int(white)))
                }
            }
        }
        return raw
    }

    /// A camera-to-output matrix with negative terms, times an exposure gain of 2 (so mid levels reach the roll-off).
    static let matrix: [Float] = [1.9, -0.6, -0.3, -0.25, 1.5, -0.25, 0.02, -0.5, 1.48].map { $0 * 2 }

    @Test(
        "developed rows match the scalar definition at every width",
        arguments: [(37, 23, CFAPattern.rggb), (64, 20, .grbg), (29, 17, .gbrg), (40, 18, .bggr), (1, 5, .rggb)])
    func rowsMatchReference(width w: Int, height h: Int, pattern: CFAPattern) {
        let raw = Self.frame(width: w, height: h, pattern: pattern)
        for space in CaptureColorSpace.allCases {
            let fused = FusedDevelopment(
                matrix: Self.matrix, pattern: pattern, black: Self.black, white: Self.white,
                transferFunction: space.colorSpace.transferFunction)
            let curve = UnitEncodingPolynomial(space.colorSpace.transferFunction)
            let expected = (0..<h).map { Self.referenceRow($0, raw: raw, fused: fused, curve: curve) }
            for lanes in KernelLanes.available {
                lux_force_lanes(lanes)
                defer { lux_force_lanes(0) }
                let rows = FusedDevelopment.Rows(width: w)
                defer { rows.deallocate() }
                raw.withUnsafePlane { plane in
                    for y in 0..<h {
                        fused.developRow(y, raw: plane, height: h, rows: rows, slot: y & 1)
                        let got = (0..<w).map { x in
                            (0..<3).map { c in
                                rows.encoded(row: y & 1, channel: c, odd: x & 1 == 1)[x >> 1].bitPattern
                            }
                        }
                        #expect(got == expected[y], "row \(y), \(lanes) lanes, \(space)")
                    }
                }
            }
        }
    }

    @Test("the roll-off and encoding match the scalar definition at every width, NaN and −0 included")
    func encodingMatchesReference() {
        var values: [Float] = [
            .nan, -.nan, -0.0, 0, .infinity, -.infinity, 0.6, Float(0.6).nextDown, Float(0.6).nextUp, 1, 3, 1e-9,
        ]
        values += (0..<301).map { Float($0) / 100 - 0.5 }
        for space in CaptureColorSpace.allCases {
            let curve = UnitEncodingPolynomial(space.colorSpace.transferFunction)
            values += [curve.knee, curve.knee.nextDown, curve.knee.nextUp]
            let expected = values.map { curve.encode(Self.rollOff($0)).bitPattern }
            for lanes in KernelLanes.available {
                // Every start, so each value passes through every lane position and the scalar tail.
                for offset in 0..<8 {
                    var out = Array(values[offset...])
                    var parameters = curve.kernelParameters
                    lux_force_lanes(lanes)
                    lux_capture_encode(&out, &parameters, out.count)
                    lux_force_lanes(0)
                    #expect(out.map(\.bitPattern) == Array(expected[offset...]), "\(lanes) lanes, offset \(offset)")
                }
            }
        }
    }

    // MARK: - Reference: the scalar definition

    /// Raw level of column `x`, row `y` (both mirrored at the frame's edges), normalised.
    static func level(_ raw: PixelBuffer, _ x: Int, _ y: Int) -> Float {
        let w = raw.width
        let h = raw.height
        let r = min(max(y < 0 ? -y : (y >= h ? 2 * h - 2 - y : y), 0), h - 1)
        let c = x < 0 ? (w > 1 ? 1 : 0) : (x >= w ? (w > 1 ? w - 2 : 0) : x)
        let sample = raw.withUnsafePlane { $0.row(r, as: UInt16.self)[c] }
        return (Float(sample) - black) * (1 / (white - black))
    }

    /// Encoded R′, G′, B′ bit patterns of every pixel of row `y`.
    static func referenceRow(
        _ y: Int, raw: PixelBuffer, fused: FusedDevelopment, curve: UnitEncodingPolynomial
    ) -> [[UInt32]] {
        let w = raw.width
        // The desaturation: the largest level of the five rows around `y`, per column and over the row.
        let columnPeak = (0..<w).map { x in (y - 2...y + 2).reduce(Float(0)) { max($0, level(raw, x, $1)) } }
        let nearClip = columnPeak.reduce(0, max) > FusedDevelopment.desaturationStart
        return (0..<w).map { x in
            let a = fused.weights[(y & 1) * 2 + (x & 1)]
            let centre = level(raw, x, y)
            let horizontal = level(raw, x - 1, y) + level(raw, x + 1, y)
            let vertical = level(raw, x, y - 1) + level(raw, x, y + 1)
            let diagonal =
                (level(raw, x - 1, y - 1) + level(raw, x + 1, y - 1))
                + (level(raw, x - 1, y + 1) + level(raw, x + 1, y + 1))
            var rgb = (0..<3).map { k in
                a[4 * k] * centre + a[4 * k + 1] * horizontal + a[4 * k + 2] * vertical + a[4 * k + 3] * diagonal
            }
            if nearClip {
                let peak = (max(x - 2, 0)...min(x + 2, w - 1)).reduce(Float(0)) { max($0, columnPeak[$1]) }
                (rgb[0], rgb[1], rgb[2]) = FusedDevelopment.desaturated(rgb[0], rgb[1], rgb[2], rawPeak: peak)
            }
            return rgb.map { curve.encode(rollOff($0)).bitPattern }
        }
    }

    /// Highlight roll-off after clipping negatives: linear below 0.6, then compresses to reach 1 at 3.
    static func rollOff(_ v: Float) -> Float {
        let lin = v > 0 ? v : 0
        let knee = 0.6 + 0.4 * (1 - 1 / (1 + (lin - 0.6) * 1.4)) * 1.4
        let compressed = knee < 1 ? knee : 1
        return lin < 0.6 ? lin : compressed
    }
}

extension UnitEncodingPolynomial {
    /// The encoded value of linear `x` in 0…1: the scalar definition `lux_capture_encode` follows (separate
    /// multiplies and adds, Horner from the highest coefficient).
    func encode(_ x: Float) -> Float {
        let root = (x > 0 ? x : 0).squareRoot()
        let u = (root > 0 ? root : 0).squareRoot() * uScale + uOffset
        var p = c6
        p = p * u + c5
        p = p * u + c4
        p = p * u + c3
        p = p * u + c2
        p = p * u + c1
        p = p * u + c0
        let line = x * slope + intercept
        return x < knee ? line : p
    }
}
