import CLuxKernels
public import LuxColor
public import LuxRender

/// Stage 6: white-balanced camera RGB → the pipeline's working space (linear BT.2020, extended range) by
/// the DNG colour model, with the exposure folded into the same matrix.
///
/// `matrix = XYZ(D65)→BT.2020 · Bradford(D50→D65) · CameraToXYZ_D50(neutral) · diag(neutral)`, where
/// `CameraToXYZ_D50` is LuxColor's ``CameraColorCalibration/cameraToXYZD50(neutral:)`` (forward matrices
/// when present, otherwise the inverse colour matrix adapted in XYZ), interpolated for the white's
/// temperature. White-balanced camera (1, 1, 1) — the neutral at the clip of its largest channel — maps to
/// BT.2020 (1, 1, 1); values keep their sign and range (no clipping).
public struct CameraColorTransform: Hashable, Sendable {
    /// The 3×3 matrix from white-balanced camera RGB to linear BT.2020.
    public var matrix: Matrix3x3

    /// The colour space the pipeline computes in: linear BT.2020 primaries, D65, extended range.
    public static let workingSpace = ColorSpace.itur2020.linearized(name: "Linear Rec. 2020").withExtendedRange(true)

    /// Builds the transform for a scene whose white has camera response `neutral`.
    ///
    /// - Throws: ``RAWError/color(_:)`` when the neutral cannot be converted (non-positive components, a
    ///   singular matrix).
    public init(calibration: CameraColorCalibration, neutral: SIMD3<Double>) throws(RAWError) {
        let toXYZ: Matrix3x3
        do { toXYZ = try calibration.cameraToXYZD50(neutral: neutral) } catch { throw .color(error) }
        let adapt = ChromaticAdaptation.bradford(from: WhitePoint.iccD50XYZ, to: WhitePoint.d65.xyz())
        guard let fromXYZ = Self.workingSpace.matrixToXYZ?.inverse else {
            throw .color(.unsupportedConversion(from: "XYZ", to: "Rec. 2020", reason: "singular primaries"))
        }
        matrix = fromXYZ * adapt * toXYZ * Matrix3x3.diagonal(neutral / neutral.max())
    }

    /// Creates a transform from an explicit matrix.
    public init(matrix: Matrix3x3) { self.matrix = matrix }

    /// Applies the matrix, scaled by `gain` (the exposure, 2^EV).
    ///
    /// Each row goes through `lux_matrix3_planes` (8 lanes wide with AVX2): `red = (m0·r + m1·g) + m2·b`, … with no
    /// fused multiply-add, the bits of the Swift loop it replaced.
    public func apply(to image: Image, gain: Double = 1) -> Image {
        let m = (0..<9).map { Float(matrix.entries[$0] * gain) }
        let kernel = ColorKernel(name: "cameraToWorking", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            m.withUnsafeBufferPointer { lux_matrix3_planes($0.baseAddress, p.red, p.green, p.blue, row.count) }
        }
        return image.applying(kernel, arguments: "matrix=\(m)")
    }
}
