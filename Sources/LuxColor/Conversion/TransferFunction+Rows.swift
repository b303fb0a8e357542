/// A transfer function's encoding (linear → encoded) prepared for rows of `Float`, for pixel loops in other
/// modules: one call per row runs LuxColor's vectorised curve loop (a per-value call across modules would not
/// be inlined and would stop the caller's loop from vectorising).
package struct TransferEncoder: Sendable {
    private let stage: CurveStage

    /// An encoder for `transferFunction`, clamping its results to 0…1.
    package init(_ transferFunction: TransferFunction) {
        stage = .encoding(transferFunction, clamps: true, mirrors: false)
    }

    /// Encodes `count` linear values (0…1) in place.
    package func encode(_ values: UnsafeMutablePointer<Float>, count: Int) { stage.apply(values, count) }
}
