/// What a reducing ``ImageProcessor`` does with its input: the bodies of
/// ``ImageProcessor/init(description:argumentDigest:inputFormat:outputFormat:reducing:bandRows:partialCount:band:combine:)``.
public struct ImageReduction: Sendable {
    /// Reduces one band of the area (full width, up to `bandRows` rows) into `partial` (`partialCount` values, zeroed
    /// beforehand).
    ///
    /// Called on several threads at once, each band once.
    public typealias Band = @Sendable (_ band: ImageProcessorInput, _ partial: UnsafeMutablePointer<Double>) -> Void
    /// Combines the partial values of every band (`partialCount` values per band, bands from the top) into the
    /// output tile.
    ///
    /// It may throw; the render then fails with ``RenderError/processorFailed(_:reason:)``.
    public typealias Combine =
        @Sendable (_ partials: UnsafeBufferPointer<Double>, _ output: ImageProcessorOutput)
        throws -> Void

    let area: PixelRect
    let bandRows: Int
    let partialCount: Int
    let band: Band
    let combine: Combine

    /// The bands of the area, top to bottom.
    var bands: [PixelRect] { area.tiles(width: area.width, height: bandRows) }
}
