/// Linear Bradford chromatic adaptation, as used by ICC profiles and the DNG SDK.
public enum ChromaticAdaptation {
    /// The Bradford cone-response matrix.
    public static let bradford = Matrix3x3([
        0.8951, 0.2664, -0.1614,
        -0.7502, 1.7135, 0.0367,
        0.0389, -0.0685, 1.0296,
    ])

    /// The matrix that adapts XYZ under `source` white to XYZ under `destination` white.
    ///
    /// - Parameters:
    ///   - source: The source white as XYZ (any luminance; only the ratio matters after normalising Y).
    ///   - destination: The destination white as XYZ.
    public static func bradford(from source: SIMD3<Double>, to destination: SIMD3<Double>) -> Matrix3x3 {
        let src = source / source.y
        let dst = destination / destination.y
        let rhoS = bradford * src
        let rhoD = bradford * dst
        // The cone-space inverse exists (det ≈ 1.84), so force-unwrapping a constant is safe.
        let inverse = bradfordInverse
        return inverse * Matrix3x3.diagonal(rhoD / rhoS) * bradford
    }

    /// The matrix that adapts XYZ between two white chromaticities.
    public static func bradford(from source: Chromaticity, to destination: Chromaticity) -> Matrix3x3 {
        if source == destination { return .identity }
        return bradford(from: source.xyz(), to: destination.xyz())
    }

    static let bradfordInverse: Matrix3x3 = bradford.inverse ?? .identity
}
