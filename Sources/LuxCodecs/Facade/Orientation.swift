/// How stored pixels must be transformed to be viewed upright (TIFF/Exif tag 274, the
/// `CGImagePropertyOrientation` values).
///
/// The name says where the top of the stored image ends up: `.right` (6) means the stored image must be
/// rotated 90° clockwise for display, which is how a phone held upright records its sensor data.
public enum Orientation: UInt16, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// 1: no transform.
    case up = 1
    /// 2: mirrored horizontally.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored vertically.
    case downMirrored = 4
    /// 5: mirrored horizontally, then rotated 90° counter-clockwise (transpose).
    case leftMirrored = 5
    /// 6: rotate 90° clockwise to view.
    case right = 6
    /// 7: mirrored horizontally, then rotated 90° clockwise (transverse).
    case rightMirrored = 7
    /// 8: rotate 90° counter-clockwise to view.
    case left = 8

    /// Whether the displayed image swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    public var description: String {
        switch self {
        case .up: "up (1)"
        case .upMirrored: "up, mirrored (2)"
        case .down: "rotated 180° (3)"
        case .downMirrored: "down, mirrored (4)"
        case .leftMirrored: "transposed (5)"
        case .right: "rotate 90° clockwise (6)"
        case .rightMirrored: "transverse (7)"
        case .left: "rotate 90° counter-clockwise (8)"
        }
    }
}
