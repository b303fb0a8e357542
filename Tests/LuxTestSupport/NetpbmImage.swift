public import Foundation

/// Netpbm images (PGM/PPM, 8- or 16-bit), the output format of dcraw, djpeg and unprocessed_raw.
public struct NetpbmImage: Sendable {
    public var width: Int
    public var height: Int
    /// 1 (PGM) or 3 (PPM).
    public var channels: Int
    public var maxValue: Int
    /// Samples row by row, big-endian 16-bit values already converted.
    public var samples: [UInt16]

    /// Parses binary P5/P6 data.
    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var p = 0
        func token() throws -> String {
            while p < bytes.count {
                if bytes[p] == UInt8(ascii: "#") {
                    while p < bytes.count, bytes[p] != 10 { p += 1 }
                } else if [9, 10, 13, 32].contains(bytes[p]) {
                    p += 1
                } else {
                    break
                }
            }
            let start = p
            while p < bytes.count, ![9, 10, 13, 32].contains(bytes[p]) { p += 1 }
            guard p > start else { throw NSError(domain: "Netpbm", code: 1) }
            return String(decoding: bytes[start..<p], as: UTF8.self)
        }
        let magic = try token()
        guard magic == "P5" || magic == "P6", let w = Int(try token()), let h = Int(try token()),
            let m = Int(try token())
        else {
            throw NSError(domain: "Netpbm", code: 2, userInfo: [NSLocalizedDescriptionKey: "not a binary PGM/PPM"])
        }
        p += 1
        width = w
        height = h
        channels = magic == "P5" ? 1 : 3
        maxValue = m
        let n = w * h * channels
        let wide = m > 255
        guard bytes.count - p >= n * (wide ? 2 : 1) else { throw NSError(domain: "Netpbm", code: 3) }
        // Through raw pointers: tests run in debug builds, where a closure per sample of a 12 MP picture took seconds.
        let start = p
        samples = bytes.withUnsafeBufferPointer { source in
            [UInt16](unsafeUninitializedCapacity: n) { out, initialized in
                guard let s = source.baseAddress.map({ $0 + start }), let d = out.baseAddress else { return }
                if wide {
                    for i in 0..<n { d[i] = UInt16(s[2 * i]) << 8 | UInt16(s[2 * i + 1]) }
                } else {
                    for i in 0..<n { d[i] = UInt16(s[i]) }
                }
                initialized = n
            }
        }
    }
}
