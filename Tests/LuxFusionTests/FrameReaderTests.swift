import CLuxKernels
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxFusion

/// Burst merging's Bayer reads (``FrameReader``, its quads split by the C kernel `lux_bayer_quads`) against the
/// definition written as scalar Swift, at every vector width: the same bits.
@Suite(.serialized) struct FrameReaderTests {
    /// A 46 × 20 RGGB frame of pseudo-random 14-bit codes, read with black levels 512, 509, 515, 511 and white 16383.
    static func reader() -> FrameReader {
        var frame = PixelBuffer(width: 46, height: 20, format: .bayer14(.rggb))
        var random = SplitMix(seed: 25)
        frame.withUnsafeMutablePlane { plane in
            for y in 0..<plane.height {
                let row = (plane.baseAddress + y * plane.bytesPerRow).assumingMemoryBound(to: UInt16.self)
                for x in 0..<plane.width { row[x] = UInt16(truncatingIfNeeded: random.next() % 16384) }
            }
        }
        let model = RawNoiseModel(
            blackLevels: [512, 509, 515, 511], whiteLevel: 16383, noise: NoiseProfile(scale: 1e-3, offset: 1e-5))
        return FrameReader(bayer: frame, model: model)
    }

    @Test(
        "quads read as (code − black)·scale per site, at every width",
        arguments: [(0, 0, 23, 10), (3, 2, 11, 5), (5, 6, 8, 4), (1, 1, 17, 3), (2, 0, 1, 2), (9, 4, 4, 6)])
    func bayerQuadsMatchDefinition(x0: Int, y0: Int, width: Int, height: Int) {
        let reader = Self.reader()
        let stride = width + 3
        let planeStride = stride * height
        var expected = [Float](repeating: 0, count: 4 * planeStride)
        reader.buffer.withUnsafePlane { plane in
            for j in 0..<height {
                let top = plane.row(2 * (y0 + j), as: UInt16.self)
                let bottom = plane.row(2 * (y0 + j) + 1, as: UInt16.self)
                for i in 0..<width {
                    let q = 2 * (x0 + i)
                    let codes = [top[q], top[q + 1], bottom[q], bottom[q + 1]]
                    for s in 0..<4 {
                        expected[s * planeStride + j * stride + i] =
                            (Float(codes[s]) - reader.black[s]) * reader.scale[s]
                    }
                }
            }
        }
        for lanes in KernelLanes.available {
            lux_force_lanes(lanes)
            defer { lux_force_lanes(0) }
            var got = [Float](repeating: 0, count: 4 * planeStride)
            var scratch = [Float](repeating: 0, count: FrameReader.scratchCount(forRowOf: width))
            got.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { s in
                    reader.read(
                        x: x0, y: y0, width: width, height: height, into: out.baseAddress!, planeStride: planeStride,
                        rowStride: stride, scratch: s.baseAddress!)
                }
            }
            #expect(got.map(\.bitPattern) == expected.map(\.bitPattern), "lanes: \(lanes)")
        }
    }
}
