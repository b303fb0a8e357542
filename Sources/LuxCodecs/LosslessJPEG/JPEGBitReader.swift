/// Reads the entropy-coded segment of a JPEG: removes 0xFF00 stuffing, stops at markers (feeding zero
/// bytes, which are counted so a decoder can tell it ran past the real data).
struct JPEGBitReader {
    let base: UnsafePointer<UInt8>
    let end: Int
    var position: Int
    /// Pending bits, left-aligned.
    var buffer: UInt64 = 0
    /// Number of valid bits in `buffer`.
    var count: Int = 0
    /// Zero bytes fed after a marker or the end of the data.
    var padded: Int = 0

    init(_ bytes: UnsafeRawBufferPointer, start: Int) {
        base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        end = bytes.count
        position = start
    }

    /// Tops the buffer up to at least 57 bits.
    @inline(__always)
    mutating func fill() {
        // Fast path: eight bytes without any 0xFF can be taken as a block.
        if position + 8 <= end {
            let w = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let v = ~w
            if (v &- 0x0101_0101_0101_0101) & ~v & 0x8080_8080_8080_8080 == 0 {
                let take = (63 - count) >> 3
                let keep = 64 - take * 8
                buffer |= ((w >> UInt64(keep)) << UInt64(keep)) >> UInt64(count)
                count += take * 8
                position += take
                return
            }
        }
        fillSlowly()
    }

    @inline(never)
    mutating func fillSlowly() {
        while count <= 56 {
            var byte: UInt64 = 0
            if position < end {
                let b = base[position]
                if b == 0xFF {
                    if position + 1 < end, base[position + 1] == 0 {
                        byte = 0xFF
                        position += 2
                    } else {
                        padded += 1  // a marker: stay on it
                    }
                } else {
                    byte = UInt64(b)
                    position += 1
                }
            } else {
                padded += 1
            }
            buffer |= byte << UInt64(56 - count)
            count += 8
        }
    }

    /// Whether bits fed as padding have been consumed (the data ended or hit a marker too early).
    var ranPastData: Bool { padded * 8 > count }

    @inline(__always)
    mutating func bits(_ n: Int) -> UInt32 {
        if count < n { fill() }
        let v = UInt32(truncatingIfNeeded: buffer >> UInt64(64 - n))
        buffer <<= UInt64(n)
        count -= n
        return v
    }

    /// Skips to the next restart marker (FF D0…D7) and clears the bit buffer.
    mutating func restart() -> Bool {
        buffer = 0
        count = 0
        padded = 0
        while position + 1 < end {
            if base[position] == 0xFF, (0xD0...0xD7).contains(base[position + 1]) {
                position += 2
                return true
            }
            position += 1
        }
        return false
    }
}
