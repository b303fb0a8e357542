/// One box of an ISO base media file (HEIF, MP4), located in the file's bytes, for tests that build or patch files.
public struct ISOBMFFBox: Sendable, Equatable {
    /// The four-character type, such as `moov` or `meta`.
    public var type: String
    /// Where the whole box lies, header included.
    public var whole: Range<Int>
    /// Where its payload lies, after the size and type (and the 64-bit size when there is one).
    public var payload: Range<Int>

    /// The boxes that lie one after another in `range` of `bytes`; throws at a size that leaves the range.
    public static func boxes(_ bytes: [UInt8], in range: Range<Int>) throws -> [ISOBMFFBox] {
        var found: [ISOBMFFBox] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            var header = 8
            if size == 1, at + 16 <= range.upperBound {
                size = bytes[at + 8..<at + 16].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else {
                throw ExternalTool.ToolError(message: "box \(type) at \(at) leaves its container")
            }
            found.append(ISOBMFFBox(type: type, whole: at..<at + size, payload: at + header..<at + size))
            at += size
        }
        return found
    }
}
