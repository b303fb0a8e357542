/// A transfer function prepared for rows of `Float`, for pixel loops in other modules: one call per row runs
/// LuxColor's vectorised curve loop (a per-value call across modules would not be inlined and would stop the
/// caller's loop from vectorising).
package struct TransferCurveRows: Sendable {
    private let stage: CurveStage

    /// Linear → encoded values.
    ///
    /// `clamps` limits the results to 0…1; `mirrors` sends negative values through the curve mirrored (extended range).
    package init(encoding transferFunction: TransferFunction, clamps: Bool = true, mirrors: Bool = false) {
        stage = .encoding(transferFunction, clamps: clamps, mirrors: mirrors)
    }

    /// Encoded → linear values, with the same options.
    package init(decoding transferFunction: TransferFunction, clamps: Bool = true, mirrors: Bool = false) {
        stage = .decoding(transferFunction, clamps: clamps, mirrors: mirrors)
    }

    /// Applies the curve to `count` values in place.
    package func apply(_ values: UnsafeMutablePointer<Float>, count: Int) { stage.apply(values, count) }
}
