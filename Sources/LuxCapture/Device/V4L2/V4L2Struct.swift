/// A V4L2 structure held as little-endian bytes, read and written by field offset.
///
/// ``V4L2Driver/ioctl(_:_:_:)`` passes these bytes to the kernel (or to a test's fake of it); the offsets are those
/// of the 64-bit layouts in `linux/videodev2.h`.
struct V4L2Struct {
    var bytes: [UInt8]

    init(size: Int) { bytes = [UInt8](repeating: 0, count: size) }

    init(bytes: [UInt8]) { self.bytes = bytes }

    func u32(_ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[offset + k]) << (8 * k) }
        return v
    }

    func s32(_ offset: Int) -> Int32 { Int32(bitPattern: u32(offset)) }

    func u64(_ offset: Int) -> UInt64 { UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32 }

    func s64(_ offset: Int) -> Int64 { Int64(bitPattern: u64(offset)) }

    mutating func set(_ offset: Int, _ value: UInt32) {
        guard offset + 4 <= bytes.count else { return }
        for k in 0..<4 { bytes[offset + k] = UInt8((value >> (8 * k)) & 0xFF) }
    }

    mutating func set(_ offset: Int, _ value: Int32) { set(offset, UInt32(bitPattern: value)) }

    mutating func set(_ offset: Int, _ value: UInt64) {
        set(offset, UInt32(truncatingIfNeeded: value))
        set(offset + 4, UInt32(truncatingIfNeeded: value >> 32))
    }

    mutating func set(_ offset: Int, _ value: Int64) { set(offset, UInt64(bitPattern: value)) }

    /// A NUL-terminated string of at most `length` bytes.
    func string(_ offset: Int, _ length: Int) -> String {
        guard offset + length <= bytes.count else { return "" }
        let slice = bytes[offset..<(offset + length)]
        return String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Writes `text` NUL-terminated into `length` bytes (truncated to `length − 1`).
    mutating func set(_ offset: Int, string text: String, length: Int) {
        guard offset + length <= bytes.count else { return }
        for i in 0..<length { bytes[offset + i] = 0 }
        for (i, b) in text.utf8.prefix(length - 1).enumerated() { bytes[offset + i] = b }
    }
}
