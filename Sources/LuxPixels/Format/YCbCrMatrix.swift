/// The matrix between R′G′B′ and Y′CbCr.
public enum YCbCrMatrix: String, Hashable, Sendable, Codable, CaseIterable {
    /// ITU-R BT.601 (standard definition): Kr = 0.299, Kb = 0.114.
    case bt601
    /// ITU-R BT.709 (high definition): Kr = 0.2126, Kb = 0.0722.
    case bt709
    /// ITU-R BT.2020 (non-constant luminance): Kr = 0.2627, Kb = 0.0593.
    case bt2020

    /// The red and blue luma coefficients.
    public var coefficients: (kr: Float, kb: Float) {
        switch self {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        }
    }
}
