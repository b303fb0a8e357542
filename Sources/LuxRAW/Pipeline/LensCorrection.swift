public import LuxCodecs
import LuxPixels
public import LuxRender

/// Stage 4: geometric lens correction from the DNG's WarpRectilinear opcode: radial distortion and, when the
/// opcode has one coefficient set per plane, lateral chromatic aberration (each colour plane is resampled
/// through its own polynomial).
///
/// For an output pixel at `p`, with the optical centre `c` and `m` the distance from `c` to the farthest
/// corner: `Δ = (p − c)/m`, `r² = |Δ|²`, `f = kr0 + kr1 r² + kr2 r⁴ + kr3 r⁶`, and the source is
/// `c + m · (f·Δ + tangential)` with `tangential = (2 kt0 ΔxΔy + kt1 (r² + 2Δx²), kt0 (r² + 2Δy²) + 2 kt1 ΔxΔy)`
/// (DNG 1.7 §7, opcode 1). Sampling is bilinear; beyond the edges the image repeats its edge pixels.
/// Vignetting and gain maps are applied to the mosaic by ``SensorLinearization``.
public struct LensCorrection: Hashable, Sendable {
    /// The distortion model.
    public var warp: WarpRectilinear

    /// Creates the stage.
    public init(warp: WarpRectilinear) { self.warp = warp }

    /// The warp of the opcode lists (the last WarpRectilinear of OpcodeList3), if any.
    public static func warp(in properties: RawProperties) -> WarpRectilinear? {
        var found: WarpRectilinear?
        for op in properties.opcodeList3 {
            // A warp without coefficients or with non-finite ones is skipped (opcodes are optional).
            if case .warpRectilinear(let w) = op.operation, !w.planes.isEmpty, w.centerX.isFinite, w.centerY.isFinite,
                w.planes.allSatisfy({ ($0.radial + $0.tangential).allSatisfy(\.isFinite) })
            {
                found = w
            }
        }
        return found
    }

    /// Per-plane coefficients as `Double` arrays: kr0…kr3, kt0, kt1.
    func coefficients(plane: Int) -> [Double] {
        let set = warp.planes[min(plane, warp.planes.count - 1)]
        let kr = set.radial + [Double](repeating: 0, count: max(0, 4 - set.radial.count))
        let kt = set.tangential + [Double](repeating: 0, count: max(0, 2 - set.tangential.count))
        return Array(kr.prefix(4)) + Array(kt.prefix(2))
    }

    /// Where output point `(x, y)` of plane `plane` samples, for an image of extent `extent`.
    static func source(
        _ x: Double, _ y: Double, k: [Double], cx: Double, cy: Double, m: Double
    ) -> (Double, Double) {
        let dx = (x - cx) / m
        let dy = (y - cy) / m
        let r2 = dx * dx + dy * dy
        let f = k[0] + r2 * (k[1] + r2 * (k[2] + r2 * k[3]))
        let tx = 2 * k[4] * dx * dy + k[5] * (r2 + 2 * dx * dx)
        let ty = k[4] * (r2 + 2 * dy * dy) + 2 * k[5] * dx * dy
        return (cx + m * (f * dx + tx), cy + m * (f * dy + ty))
    }

    /// Applies the warp to an image whose extent starts at (0, 0).
    public func apply(to image: Image) -> Image {
        let extent = image.extent
        let cx = extent.minX + warp.centerX * extent.width
        let cy = extent.minY + warp.centerY * extent.height
        let mx = max(cx - extent.minX, extent.maxX - cx)
        let my = max(cy - extent.minY, extent.maxY - cy)
        let m = (mx * mx + my * my).squareRoot()
        let k = (0..<3).map { coefficients(plane: $0) }
        let processor = ImageProcessor(
            description: "warpRectilinear", argumentDigest: "\(k) c=\(cx),\(cy)", inputFormat: .rgbaFloat,
            inputLayout: .planarRows, outputFormat: .rgbaFloat, outputLayout: .planarRows,
            roi: { _, rect in
                // The bounding box of where the rectangle's edges and centre lines sample, for all planes.
                var lo = (Double.infinity, Double.infinity)
                var hi = (-Double.infinity, -Double.infinity)
                let steps = 16
                for plane in 0..<3 {
                    for s in 0...steps {
                        let t = Double(s) / Double(steps)
                        let xs = rect.minX + t * rect.width
                        let ys = rect.minY + t * rect.height
                        for (px, py) in [
                            (xs, rect.minY), (xs, rect.maxY), (rect.minX, ys), (rect.maxX, ys), (xs, rect.midY),
                            (rect.midX, ys),
                        ] {
                            let (sx, sy) = LensCorrection.source(px, py, k: k[plane], cx: cx, cy: cy, m: m)
                            lo = (min(lo.0, sx), min(lo.1, sy))
                            hi = (max(hi.0, sx), max(hi.1, sy))
                        }
                    }
                }
                return Rect(
                    minX: (lo.0 - 2).rounded(.down), minY: (lo.1 - 2).rounded(.down), maxX: (hi.0 + 2).rounded(.up),
                    maxY: (hi.1 + 2).rounded(.up))
            },
            process: { inputs, output in
                let input = inputs[0]
                let ix = Double(input.region.minX)
                let iy = Double(input.region.minY)
                let iw = input.width
                let ih = input.height
                // Each input plane's row 0; its row y is `y · rowFloats` floats further.
                let rowFloats = input.bytesPerRow / MemoryLayout<Float>.size
                let firstRow = input.planes(0)
                for j in 0..<output.height {
                    let out = output.planes(j)
                    let y = output.region.minY + Double(j) + 0.5
                    for plane in 0..<3 {
                        let dst = out.plane(plane)
                        let source = firstRow.plane(plane)
                        for i in 0..<output.width {
                            let x = output.region.minX + Double(i) + 0.5
                            let (sx, sy) = LensCorrection.source(x, y, k: k[plane], cx: cx, cy: cy, m: m)
                            // Bilinear between pixel centres, clamped into the materialised region.
                            let u = min(max(sx - ix - 0.5, 0), Double(iw - 1))
                            let v = min(max(sy - iy - 0.5, 0), Double(ih - 1))
                            let x0 = min(Int(u), iw - 1)
                            let y0 = min(Int(v), ih - 1)
                            let x1 = min(x0 + 1, iw - 1)
                            let y1 = min(y0 + 1, ih - 1)
                            let fx = Float(u - Double(x0))
                            let fy = Float(v - Double(y0))
                            let r0 = source + y0 * rowFloats
                            let r1 = source + y1 * rowFloats
                            let top = r0[x0] * (1 - fx) + r0[x1] * fx
                            let bottom = r1[x0] * (1 - fx) + r1[x1] * fx
                            dst[i] = top * (1 - fy) + bottom * fy
                        }
                    }
                    out.alpha.update(repeating: 1, count: output.width)
                }
            }
        )
        return processor.apply(to: [image.clampedToExtent()], extent: extent, isOpaque: true)
    }
}
