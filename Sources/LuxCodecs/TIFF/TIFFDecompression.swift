internal import CLuxCodecShims

/// Decompressors for TIFF strips and tiles (zlib Deflate, LZW, PackBits).
enum TIFFDecompression {
    /// Inflates a zlib (or raw deflate) stream into exactly `expected` bytes.
    static func inflate(_ src: UnsafeRawBufferPointer, expected: Int, what: String, offset: Int) throws(CodecError)
        -> [UInt8]
    {
        var out = [UInt8](repeating: 0, count: expected)
        var message = [CChar](repeating: 0, count: 256)
        var complete: Int32 = 0
        let n = out.withUnsafeMutableBufferPointer { dst in
            message.withUnsafeMutableBufferPointer { m in
                lux_inflate(
                    src.baseAddress?.assumingMemoryBound(to: UInt8.self), src.count, dst.baseAddress, dst.count, 0,
                    &complete, m.baseAddress, m.count)
            }
        }
        guard n >= 0 else { throw .malformed(what: "\(what) Deflate data", offset: offset, reason: cMessage(message)) }
        guard n == expected else {
            throw .truncated(what: "\(what) Deflate data (\(n) of \(expected) bytes)", offset: offset)
        }
        return out
    }

    /// Decodes TIFF LZW (MSB-first codes of 9–12 bits, early change) into exactly `expected` bytes.
    static func lzw(_ src: UnsafeRawBufferPointer, expected: Int, what: String, offset: Int) throws(CodecError)
        -> [UInt8]
    {
        var out = [UInt8]()
        out.reserveCapacity(expected)
        // The string table as (prefix code, last byte, length); entries 0…255 are single bytes.
        var prefix = [Int32](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)
        var length = [Int32](repeating: 1, count: 4096)
        for i in 0..<256 {
            suffix[i] = UInt8(i)
            first[i] = UInt8(i)
        }
        var next = 258
        var width = 9
        var bitBuffer: UInt32 = 0
        var bitCount = 0
        var pos = 0
        var old: Int = -1
        var scratch = [UInt8](repeating: 0, count: 4096)
        func emit(_ code: Int) {
            let n = Int(length[code])
            var c = code
            var i = n - 1
            while i >= 0 {
                scratch[i] = suffix[c]
                c = Int(prefix[c])
                i -= 1
                if c < 0 { break }
            }
            let room = expected - out.count
            out.append(contentsOf: scratch[0..<min(n, room)])
        }
        while out.count < expected {
            while bitCount < width {
                guard pos < src.count else {
                    throw .truncated(what: "\(what) LZW data (\(out.count) of \(expected) bytes)", offset: offset + pos)
                }
                bitBuffer = bitBuffer << 8 | UInt32(src[pos])
                pos += 1
                bitCount += 8
            }
            let code = Int((bitBuffer >> UInt32(bitCount - width)) & ((1 << UInt32(width)) - 1))
            bitCount -= width
            if code == 257 { break }
            if code == 256 {
                next = 258
                width = 9
                old = -1
                continue
            }
            if old < 0 {
                guard code < 256 else {
                    throw .malformed(
                        what: "\(what) LZW data", offset: offset + pos, reason: "code \(code) after a clear code")
                }
                emit(code)
                old = code
                continue
            }
            if code < next {
                emit(code)
                if next < 4096 {
                    prefix[next] = Int32(old)
                    suffix[next] = first[code]
                    first[next] = first[old]
                    length[next] = length[old] + 1
                    next += 1
                }
            } else if code == next, next < 4096 {
                prefix[next] = Int32(old)
                suffix[next] = first[old]
                first[next] = first[old]
                length[next] = length[old] + 1
                next += 1
                emit(code)
            } else {
                throw .malformed(
                    what: "\(what) LZW data", offset: offset + pos, reason: "code \(code) is not in the table")
            }
            old = code
            if next + 1 >= (1 << width), width < 12 { width += 1 }
        }
        guard out.count == expected else {
            throw .truncated(what: "\(what) LZW data (\(out.count) of \(expected) bytes)", offset: offset + pos)
        }
        return out
    }

    /// Decodes PackBits run-length data into exactly `expected` bytes.
    static func packBits(_ src: UnsafeRawBufferPointer, expected: Int, what: String, offset: Int) throws(CodecError)
        -> [UInt8]
    {
        var out = [UInt8]()
        out.reserveCapacity(expected)
        var p = 0
        while out.count < expected {
            guard p < src.count else { throw .truncated(what: "\(what) PackBits data", offset: offset + p) }
            let n = Int(Int8(bitPattern: src[p]))
            p += 1
            if n >= 0 {
                let k = min(n + 1, expected - out.count)
                guard p + n + 1 <= src.count else {
                    throw .truncated(what: "\(what) PackBits data", offset: offset + p)
                }
                out.append(contentsOf: src[p..<(p + k)])
                p += n + 1
            } else if n != -128 {
                guard p < src.count else { throw .truncated(what: "\(what) PackBits data", offset: offset + p) }
                out.append(contentsOf: repeatElement(src[p], count: min(1 - n, expected - out.count)))
                p += 1
            }
        }
        return out
    }
}

extension TIFFDecompression {
    /// Inflates a zlib stream of unknown size, refusing output beyond `limit` bytes.
    static func inflate(_ src: [UInt8], limit: Int, what: String) throws(CodecError) -> [UInt8] {
        var capacity = min(limit, max(1024, src.count * 4))
        while true {
            var out = [UInt8](repeating: 0, count: capacity)
            var message = [CChar](repeating: 0, count: 256)
            var complete: Int32 = 0
            let n = src.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { dst in
                    message.withUnsafeMutableBufferPointer { m in
                        lux_inflate(
                            s.baseAddress, s.count, dst.baseAddress, dst.count, 0, &complete, m.baseAddress, m.count)
                    }
                }
            }
            guard n >= 0 else { throw .malformed(what: what, offset: 0, reason: cMessage(message)) }
            if complete != 0 {
                out.removeSubrange(n...)
                return out
            }
            guard n == capacity else { throw .truncated(what: "\(what) (zlib stream ends early)", offset: src.count) }
            guard capacity < limit else {
                throw .limitExceeded(what: "\(what) inflated size", value: capacity, limit: limit)
            }
            capacity = min(limit, capacity * 4)
        }
    }

    /// Deflates bytes into a zlib stream.
    static func deflate(_ src: [UInt8], level: Int = 6) throws(CodecError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = src.withUnsafeBufferPointer { s in
            message.withUnsafeMutableBufferPointer { m in
                lux_deflate(s.baseAddress, s.count, Int32(level), &out, &size, m.baseAddress, m.count)
            }
        }
        guard status == 0, let out else { throw .library(name: "zlib", message: cMessage(message)) }
        defer { lux_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
