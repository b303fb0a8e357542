public import LuxPixels

/// A machine-readable code found in an image (the `AVMetadataMachineReadableCodeObject` role).
public struct DetectedCode: Sendable, Hashable, Codable {
    /// What kind of code it is.
    public var symbology: Symbology
    /// The decoded bytes.
    public var payload: [UInt8]
    /// The payload as text: UTF-8 when it is valid UTF-8, otherwise ISO-8859-1 (every byte one character), as
    /// readers of these symbologies assume by default.
    public var stringValue: String
    /// The symbol's corners in pixel coordinates (y down), from its own top-left clockwise.
    ///
    /// A rotated code lists them rotated. Linear codes span the scan line they were read on.
    public var corners: [Point]
    /// The smallest rectangle holding the corners.
    public var bounds: Rect
    /// The error-correction level as the symbology states it (`L`, `M`, `Q`, `H` for QR; a percentage for Aztec;
    /// `0`…`8` for PDF417), or `nil` when it has none.
    public var errorCorrectionLevel: String?

    /// Creates a detected code.
    public init(symbology: Symbology, payload: [UInt8], corners: [Point], errorCorrectionLevel: String? = nil) {
        self.symbology = symbology
        self.payload = payload
        stringValue = Self.text(payload)
        self.corners = corners
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        bounds = Rect(
            minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0)
        self.errorCorrectionLevel = errorCorrectionLevel
    }

    /// `bytes` as text: UTF-8 when valid, otherwise ISO-8859-1.
    static func text(_ bytes: [UInt8]) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
