public import LuxCodecs
public import LuxPixels
public import LuxRender
import Synchronization

/// Gives every prepared Linear Raw sensor a distinct identity (part of the render cache keys).
private let linearCounter = Atomic<UInt64>(0)

/// Stage 2 for Linear Raw data (PhotometricInterpretation LinearRaw: three samples per pixel, already demosaiced,
/// as iPhone ProRAW and converters write): stored codes to linear, normalised, white-balanced camera RGB.
///
/// For each pixel and plane of the active area: the LinearizationTable (if any), minus the black level of the plane
/// (its BlackLevel repeat cell plus BlackLevelDeltaH/V), divided by `WhiteLevel − max(black)` of the plane, times the
/// white-balance gain of the plane. From there on a Linear Raw image takes the same stages as a demosaiced mosaic.
public struct LinearRawSensor: Sendable {
    /// The stored samples of the active area (a zero-copy view of the raw buffer).
    public let pixels: PixelBuffer
    /// Width of the active area.
    public let width: Int
    /// Height of the active area.
    public let height: Int

    let table: [Float]?
    let black: BlackLevel
    let scales: SIMD3<Float>
    let isFloat: Bool
    /// A process-unique number for cache keys.
    let identity: UInt64

    /// Prepares the linearisation of Linear Raw data.
    ///
    /// - Throws: ``RAWError/unsupported(_:)`` for data other than three (or four) samples per pixel in 16-bit or
    ///   float samples; ``RAWError/noPixelData(_:)`` when the buffer is smaller than the description.
    public init(_ raw: RawImage) throws(RAWError) {
        let p = raw.properties
        guard p.photometric == .linearRaw, p.samplesPerPixel >= 3 else {
            throw .unsupported("\(p.samplesPerPixel)-sample \(p.photometric) data as Linear Raw")
        }
        let area = p.activeArea
        guard raw.pixels.width >= area.right, raw.pixels.height >= area.bottom, !area.isEmpty else {
            throw .noPixelData(
                "the pixel buffer (\(raw.pixels.width)×\(raw.pixels.height)) does not cover the active area \(area)")
        }
        let format = raw.pixels.format
        guard format == .rgba16 || format == .rgbaFloat else {
            throw .unsupported("Linear Raw samples in \(format); expected 16-bit or float RGB")
        }
        pixels = raw.activePixels
        width = area.width
        height = area.height
        isFloat = format == .rgbaFloat
        identity = linearCounter.add(1, ordering: .relaxed).newValue
        table = p.linearizationTable.flatMap { $0.isEmpty ? nil : $0.map(Float.init) }
        let black = p.blackLevel
        self.black = black
        if let dh = black.deltaH, dh.count < area.width {
            throw .unsupported("BlackLevelDeltaH with \(dh.count) values for an active area \(area.width) wide")
        }
        if let dv = black.deltaV, dv.count < area.height {
            throw .unsupported("BlackLevelDeltaV with \(dv.count) values for an active area \(area.height) high")
        }
        var scales = SIMD3<Float>(1, 1, 1)
        for c in 0..<3 {
            let white = p.whiteLevel[min(c, p.whiteLevel.count - 1)]
            let maxBlack =
                (0..<(max(black.repeatRows, 1) * max(black.repeatColumns, 1))).map {
                    black.value(
                        row: $0 / max(black.repeatColumns, 1), column: $0 % max(black.repeatColumns, 1), plane: c)
                }.max() ?? 0
            let span = white - maxBlack
            scales[c] = span > 0 ? Float(1 / span) : 1
        }
        self.scales = scales
    }

    /// Linear values of the region `x..<x+width`, `y..<y+height` (outside the area the image is reflected) into the
    /// three planes, multiplied by `gains` (red, green, blue).
    func read(
        x x0: Int, y y0: Int, width w: Int, height h: Int, gains: SIMD3<Float>,
        into planes: (
            red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
        ),
        rowStride: Int
    ) {
        let k = gains * scales
        let plain = black.repeatRows * black.repeatColumns <= 1 && black.deltaH == nil && black.deltaV == nil
        let b0 = SIMD3<Float>((0..<3).map { Float(black.value(row: 0, column: 0, plane: $0)) })
        pixels.withUnsafePlane { plane in
            for j in 0..<h {
                let sy = BilinearDemosaic.reflect(y0 + j, height)
                let out = [planes.red, planes.green, planes.blue].map { $0 + j * rowStride }
                for i in 0..<w {
                    let sx = BilinearDemosaic.reflect(x0 + i, width)
                    for c in 0..<3 {
                        var v: Float
                        if isFloat {
                            v = plane.row(sy, as: Float.self)[4 * sx + c]
                        } else {
                            let code = Int(plane.row(sy, as: UInt16.self)[4 * sx + c])
                            v = table.map { $0[min(code, $0.count - 1)] } ?? Float(code)
                        }
                        let b = plain ? b0[c] : Float(black.value(row: sy, column: sx, plane: c))
                        out[c][i] = (v - b) * k[c]
                    }
                }
            }
        }
    }

    /// The white-balanced camera-RGB image, at full size or averaged over `binning × binning` blocks.
    public func image(gains: SIMD3<Float>, binning: Int = 1) -> Image {
        let b = max(1, binning)
        let sensor = self
        let processor = ImageProcessor(
            description: "linearRaw", argumentDigest: "binning=\(b) gains=\(gains) sensor=\(identity)",
            inputFormat: nil,
            outputFormat: .rgbaFloat, outputLayout: .planarRows, roi: { _, r in r },
            process: { _, output in
                let ow = output.width
                let x0 = Int(output.region.minX)
                let y0 = Int(output.region.minY)
                let n = b * b * ow
                let rows = output.scratch(byteCount: 4 * 3 * n).assumingMemoryBound(to: Float.self)
                for j in 0..<output.height {
                    sensor.read(
                        x: b * x0, y: b * (y0 + j), width: b * ow, height: b, gains: gains,
                        into: (rows, rows + n, rows + 2 * n), rowStride: b * ow)
                    let planes = output.planes(j)
                    for (c, dst) in [planes.red, planes.green, planes.blue].enumerated() {
                        let src = rows + c * n
                        for i in 0..<ow {
                            var sum: Float = 0
                            for dy in 0..<b { for dx in 0..<b { sum += src[dy * b * ow + i * b + dx] } }
                            dst[i] = sum / Float(b * b)
                        }
                    }
                    planes.alpha.update(repeating: 1, count: ow)
                }
            })
        return processor.apply(to: [], extent: Rect(width: width / b, height: height / b), isOpaque: true)
    }
}
