public import LuxColor

/// The colour spaces a capture device can deliver (AVCaptureColorSpace).
public enum CaptureColorSpace: String, Hashable, Sendable, Codable, CaseIterable {
    /// sRGB (BT.709 primaries, D65, sRGB transfer function).
    case sRGB
    /// Display P3 (P3 primaries, D65, sRGB transfer function).
    case displayP3 = "P3_D65"

    /// The LuxColor space.
    public var colorSpace: ColorSpace {
        switch self {
        case .sRGB: .sRGB
        case .displayP3: .displayP3
        }
    }
}
