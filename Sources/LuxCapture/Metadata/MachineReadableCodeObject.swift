public import LuxCodecs
public import LuxPixels

/// A code found in a frame by a ``MetadataOutput`` (AVMetadataMachineReadableCodeObject).
///
/// Positions are normalised to the frame: 0…1 across and down from its top-left corner (y down).
public struct MachineReadableCodeObject: Sendable, Hashable {
    /// The kind of code.
    public var symbology: Symbology
    /// The payload as text (UTF-8, or ISO-8859-1 when the bytes are not UTF-8).
    public var stringValue: String
    /// The decoded bytes.
    public var payload: [UInt8]
    /// The smallest rectangle holding the corners.
    public var bounds: Rect
    /// The symbol's corners from its own top-left, clockwise.
    public var corners: [Point]
    /// The frame's presentation time.
    public var time: MediaTime

    /// The object of `code`, found in a `width × height` frame presented at `time`.
    init(_ code: DetectedCode, width: Int, height: Int, time: MediaTime) {
        let sx = 1 / Double(width)
        let sy = 1 / Double(height)
        symbology = code.symbology
        stringValue = code.stringValue
        payload = code.payload
        corners = code.corners.map { Point(x: $0.x * sx, y: $0.y * sy) }
        bounds = Rect(
            minX: code.bounds.minX * sx, minY: code.bounds.minY * sy, maxX: code.bounds.maxX * sx,
            maxY: code.bounds.maxY * sy)
        self.time = time
    }
}

/// The codes found in one frame.
public struct MetadataFrame: Sendable {
    /// The frame's presentation time.
    public var presentationTime: MediaTime
    /// The device's number for the frame.
    public var index: Int
    /// The codes whose centre lies in the output's ``MetadataOutput/rectOfInterest``, of its
    /// ``MetadataOutput/metadataObjectTypes``.
    public var objects: [MachineReadableCodeObject]
}
