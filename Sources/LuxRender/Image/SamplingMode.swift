/// How a geometric transform reads its input between pixel centres.
public enum SamplingMode: String, Hashable, Sendable, CaseIterable {
    /// Bilinear interpolation of the four nearest pixels (the default).
    case linear
    /// The single nearest pixel (no interpolation; keeps hard pixel edges).
    case nearest
}
