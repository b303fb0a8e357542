/// A four-character code: the type of an atom, a codec or a handler, stored as a big-endian `UInt32`.
struct FourCC: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    let rawValue: UInt32

    init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// Four Latin-1 characters (`"moov"`, `"©nam"`).
    init(stringLiteral text: String) {
        let scalars = Array(text.unicodeScalars)
        precondition(
            scalars.count == 4 && scalars.allSatisfy { $0.value < 256 }, "'\(text)' is not a four-character code")
        rawValue = scalars.reduce(0) { $0 << 8 | $1.value }
    }

    /// The code as text; codes that are not printable Latin-1 are shown in hexadecimal.
    var description: String {
        let bytes = [24, 16, 8, 0].map { UInt8((rawValue >> UInt32($0)) & 0xFF) }
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0xA9 }) {
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        }
        return "0x" + String(rawValue, radix: 16, uppercase: true)
    }
}
