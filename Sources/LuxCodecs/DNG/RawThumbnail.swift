import LuxColor
import LuxPixels

#if canImport(Glibc)
    import Glibc
#endif

/// A small sRGB picture made straight from raw data, for the IFD0 thumbnail of a DNG written without a
/// rendered preview: block averages per CFA colour, black/white normalisation, white balance from
/// AsShotNeutral, camera → sRGB through the inverse colour matrix, BaselineExposure, sRGB curve.
enum RawThumbnail {
    static func make(_ raw: RawImage, longSide: Int) -> PixelBuffer? {
        let p = raw.properties
        let area = p.activeArea
        guard area.width >= 2, area.height >= 2, longSide >= 8 else { return nil }
        var factor = max(1, (max(area.width, area.height) + longSide - 1) / longSide)
        let isCFA = p.photometric == .colorFilterArray
        if isCFA { factor = max(2, factor + factor % 2) }
        let tw = max(1, area.width / factor)
        let th = max(1, area.height / factor)
        let camToSRGB = cameraToSRGB(p)
        let exposure = Float(exp2(p.baselineExposure ?? 0))
        let out = PixelBuffer(width: tw, height: th, format: .rgba8, colorSpace: .sRGB)
        let dst = out.unsafeSharedMutablePlane()
        let planes = max(1, p.samplesPerPixel)
        let white = p.whiteLevel.map { Float($0) }
        raw.pixels.withUnsafePlane { src in
            for ty in 0..<th {
                let d = dst.row(ty, as: UInt8.self)
                for tx in 0..<tw {
                    var sum: SIMD3<Float> = .zero
                    var n: SIMD3<Float> = .zero
                    for by in 0..<factor {
                        let y = area.top + ty * factor + by
                        let rowPointer = src.row(y, as: UInt16.self)
                        for bx in 0..<factor {
                            let x = area.left + tx * factor + bx
                            let ay = y - area.top
                            let ax = x - area.left
                            if isCFA {
                                let cfa = p.cfa!
                                let colour = Int(
                                    cfa.colors[(ay % cfa.repeatRows) * cfa.repeatColumns + ax % cfa.repeatColumns])
                                guard colour < 3 else { continue }
                                let black = Float(p.blackLevel.value(row: ay, column: ax))
                                let v = (Float(rowPointer[x]) - black) / max(white[0] - black, 1)
                                sum[colour] += v
                                n[colour] += 1
                            } else {
                                for c in 0..<min(3, planes) {
                                    let black = Float(p.blackLevel.value(row: ay, column: ax, plane: c))
                                    let w = white[min(c, white.count - 1)]
                                    let stride = raw.pixels.format.channelCount == 1 ? 1 : 4
                                    sum[c] += (Float(rowPointer[x * stride + c]) - black) / max(w - black, 1)
                                    n[c] += 1
                                }
                                if planes == 1 {
                                    sum = SIMD3(repeating: sum[0])
                                    n = SIMD3(repeating: n[0])
                                }
                            }
                        }
                    }
                    let cam = sum / SIMD3(max(n.x, 1), max(n.y, 1), max(n.z, 1))
                    var rgb = SIMD3<Float>(
                        (camToSRGB[0] * cam).sum(), (camToSRGB[1] * cam).sum(), (camToSRGB[2] * cam).sum())
                    rgb *= exposure
                    for c in 0..<3 {
                        let encoded = TransferFunction.sRGB.encoded(fromLinear: Double(min(max(rgb[c], 0), 1)))
                        d[4 * tx + c] = UInt8((encoded * 255).rounded())
                    }
                    d[4 * tx + 3] = 255
                }
            }
        }
        withExtendedLifetime(out) {}
        return out
    }

    /// Rows of the camera → linear sRGB matrix for un-white-balanced camera values: the DNG camera model's camera → XYZ
    /// D50 for the scene neutral (which maps that neutral to white), then D50 → D65 and sRGB.
    ///
    /// Without colour tags: white balance only.
    static func cameraToSRGB(_ p: RawProperties) -> [SIMD3<Float>] {
        let neutral = p.color.sceneNeutral ?? SIMD3(1, 1, 1)
        var m = Matrix3x3.diagonal(1 / neutral)
        if let calibration = p.color.cameraColorCalibration,
            let cameraToD50 = try? calibration.cameraToXYZD50(neutral: neutral),
            let xyzToSRGB = ColorSpace.linearSRGB.matrixToXYZ?.inverse
        {
            m = xyzToSRGB * ChromaticAdaptation.bradford(from: WhitePoint.d50, to: WhitePoint.d65) * cameraToD50
        }
        return (0..<3).map { r in
            let row = m.row(r)
            return SIMD3<Float>(Float(row.x), Float(row.y), Float(row.z))
        }
    }
}
