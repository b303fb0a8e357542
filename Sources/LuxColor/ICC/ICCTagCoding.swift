/// Reading and writing the ICC tag types that matrix/TRC profiles use (ICC.1 §10):
/// `XYZ `, `sf32`, `para`, `curv`, `mluc`, `desc` (v2 textDescriptionType) and `text`.
///
/// Readers take a bounds-checked view of one tag's bytes; writers return a tag's bytes (unpadded).
enum ICCTagCoding {
    // MARK: Reading

    /// The tag's type signature (its first four bytes), checking the reserved bytes' room.
    static func typeSignature(_ tag: ICCBytes) throws(ColorError) -> String {
        try tag.require(0, 8, "tag type signature and reserved bytes")
        return try tag.signature(0)
    }

    /// The first XYZNumber of an `XYZ ` tag.
    static func xyz(_ tag: ICCBytes) throws(ColorError) -> SIMD3<Double> {
        try expectType(tag, ["XYZ "])
        return SIMD3(try tag.s15Fixed16(8), try tag.s15Fixed16(12), try tag.s15Fixed16(16))
    }

    /// The 3×3 matrix of an `sf32` tag (the `chad` layout: nine numbers, row-major).
    static func matrix(_ tag: ICCBytes) throws(ColorError) -> Matrix3x3 {
        try expectType(tag, ["sf32"])
        var entries = [Double]()
        for i in 0..<9 { entries.append(try tag.s15Fixed16(8 + 4 * i)) }
        return Matrix3x3(entries)
    }

    /// A tone curve from a `para` or `curv` tag as a ``TransferFunction``.
    static func curve(_ tag: ICCBytes) throws(ColorError) -> TransferFunction {
        switch try typeSignature(tag) {
        case "para":
            let type = try tag.uint16(8, "parametric function type")
            let counts = [1, 3, 4, 5, 7]
            guard Int(type) < counts.count else {
                throw .malformedProfile(
                    reason: "unknown parametric curve function type \(type) in \(tag.context) (allowed 0…4)",
                    offset: tag.start + 8)
            }
            var p = [Double]()
            for i in 0..<counts[Int(type)] { p.append(try tag.s15Fixed16(12 + 4 * i, "parametric curve parameter")) }
            let g = p[0]
            switch type {
            case 0:
                return g == 1 ? .linear : .gamma(g)
            case 1:  // Y = (aX + b)^g for X ≥ −b/a, else 0
                return .parametric(ParametricCurve(g: g, a: p[1], b: p[2], d: threshold(p[1], p[2])))
            case 2:  // Y = (aX + b)^g + c for X ≥ −b/a, else c
                return .parametric(
                    ParametricCurve(g: g, a: p[1], b: p[2], d: threshold(p[1], p[2]), e: p[3], f: p[3]))
            case 3:
                return .parametric(ParametricCurve(g: g, a: p[1], b: p[2], c: p[3], d: p[4]))
            default:
                return .parametric(ParametricCurve(g: g, a: p[1], b: p[2], c: p[3], d: p[4], e: p[5], f: p[6]))
            }
        case "curv":
            let n = Int(try tag.uint32(8, "curve entry count"))
            try tag.require(12, 2 * n, "\(n) curve entries")
            switch n {
            case 0:
                return .linear
            case 1:
                let g = Double(try tag.uint16(12)) / 256
                return g == 1 ? .linear : .gamma(g)
            default:
                var samples = [Float](repeating: 0, count: n)
                for i in 0..<n { samples[i] = Float(try tag.uint16(12 + 2 * i)) / 65535 }
                return .sampled(SampledCurve(samples: samples))
            }
        case let other:
            throw .malformedProfile(
                reason: "\(tag.context) has type '\(other)'; a tone curve must be 'curv' or 'para'",
                offset: tag.start)
        }
    }

    /// The `−b/a` threshold of parametric types 1 and 2 (0 when `a` is 0).
    private static func threshold(_ a: Double, _ b: Double) -> Double { a != 0 ? -b / a : 0 }

    /// The text of an `mluc`, `desc` or `text` tag.
    ///
    /// For `mluc` the en-US record is preferred, then any English record, then the first.
    static func text(_ tag: ICCBytes) throws(ColorError) -> String {
        switch try typeSignature(tag) {
        case "mluc":
            let count = Int(try tag.uint32(8, "mluc record count"))
            let recordSize = Int(try tag.uint32(12, "mluc record size"))
            guard count > 0 else { return "" }
            guard recordSize >= 12, recordSize <= tag.count, count <= tag.count else {
                throw .malformedProfile(
                    reason: "mluc has \(count) records of \(recordSize) bytes in a \(tag.count)-byte tag",
                    offset: tag.start + 8)
            }
            try tag.require(16, count * recordSize, "\(count) mluc records")
            var chosen = 0
            var chosenRank = 3
            for i in 0..<count {
                let r = 16 + i * recordSize
                let language = try tag.signature(r)  // language (2) + country (2)
                let rank = language == "enUS" ? 0 : language.hasPrefix("en") ? 1 : 2
                if rank < chosenRank {
                    chosen = i
                    chosenRank = rank
                }
            }
            let r = 16 + chosen * recordSize
            let length = Int(try tag.uint32(r + 4))
            let offset = Int(try tag.uint32(r + 8))
            try tag.require(offset, length, "mluc string")
            var units = [UInt16]()
            units.reserveCapacity(length / 2)
            for i in 0..<(length / 2) { units.append(try tag.uint16(offset + 2 * i)) }
            return trimmed(String(decoding: units, as: UTF16.self))
        case "desc":
            let asciiCount = Int(try tag.uint32(8, "desc ASCII count"))
            try tag.require(12, asciiCount, "desc ASCII text")
            let ascii = trimmed(string(tag, from: 12, count: asciiCount))
            if !ascii.isEmpty { return ascii }
            // Fall back on the Unicode part: language code, character count, UTF-16BE characters.
            let unicodeStart = 12 + asciiCount
            guard let n = try? tag.uint32(unicodeStart + 4) else { return "" }
            guard (try? tag.require(unicodeStart + 8, 2 * Int(n), "desc Unicode text")) != nil else { return "" }
            var units = [UInt16]()
            for i in 0..<Int(n) { units.append(try tag.uint16(unicodeStart + 8 + 2 * i)) }
            return trimmed(String(decoding: units, as: UTF16.self))
        case "text":
            return trimmed(string(tag, from: 8, count: tag.count - 8))
        case let other:
            throw .malformedProfile(
                reason: "\(tag.context) has type '\(other)'; text must be 'mluc', 'desc' or 'text'", offset: tag.start)
        }
    }

    /// Bytes as UTF-8 (invalid sequences repaired), up to the first NUL.
    private static func string(_ tag: ICCBytes, from offset: Int, count: Int) -> String {
        let slice = tag.bytes[(tag.start + offset)..<(tag.start + offset + count)]
        let end = slice.firstIndex(of: 0) ?? slice.endIndex
        return String(decoding: slice[slice.startIndex..<end], as: UTF8.self)
    }

    private static func trimmed(_ s: String) -> String {
        var s = Substring(s)
        while let last = s.last, last == "\0" || last == " " || last == "\n" { s = s.dropLast() }
        return String(s)
    }

    private static func expectType(_ tag: ICCBytes, _ types: [String]) throws(ColorError) {
        let type = try typeSignature(tag)
        guard types.contains(type) else {
            throw .malformedProfile(
                reason: "\(tag.context) has type '\(type)', expected '\(types.joined(separator: "' or '"))'",
                offset: tag.start)
        }
    }

    // MARK: Writing

    private static func header(_ type: String) -> ICCByteWriter {
        var w = ICCByteWriter()
        w.signature(type)
        w.zeros(4)
        return w
    }

    static func encodeXYZ(_ v: SIMD3<Double>) throws(ColorError) -> [UInt8] {
        var w = header("XYZ ")
        try w.s15Fixed16(v.x)
        try w.s15Fixed16(v.y)
        try w.s15Fixed16(v.z)
        return w.bytes
    }

    static func encodeSF32(_ m: Matrix3x3) throws(ColorError) -> [UInt8] {
        var w = header("sf32")
        for e in m.entries { try w.s15Fixed16(e) }
        return w.bytes
    }

    /// A `para` tag: type 0 for a pure power law, type 3 when there are no offsets (e, f), else type 4.
    static func encodePara(_ c: ParametricCurve) throws(ColorError) -> [UInt8] {
        var w = header("para")
        let params: [Double]
        let type: UInt16
        if c.a == 1 && c.b == 0 && c.c == 0 && c.d == 0 && c.e == 0 && c.f == 0 {
            (type, params) = (0, [c.g])
        } else if c.e == 0 && c.f == 0 {
            (type, params) = (3, [c.g, c.a, c.b, c.c, c.d])
        } else {
            (type, params) = (4, [c.g, c.a, c.b, c.c, c.d, c.e, c.f])
        }
        w.uint16(type)
        w.uint16(0)
        for p in params { try w.s15Fixed16(p) }
        return w.bytes
    }

    /// A `curv` tag with `samples` (0 entries = identity).
    static func encodeCurv(samples: [UInt16]) -> [UInt8] {
        var w = header("curv")
        w.uint32(UInt32(samples.count))
        for s in samples { w.uint16(s) }
        return w.bytes
    }

    /// A one-entry `curv` tag: a power law with the exponent as u8Fixed8.
    static func encodeCurv(gamma: Double) throws(ColorError) -> [UInt8] {
        let v = gamma * 256 + 0.5
        guard v.isFinite, v >= 1, v < 65536 else {
            throw .outOfRange(name: "curv gamma", value: gamma, allowed: 1.0 / 256...255.996)
        }
        return encodeCurv(samples: [UInt16(v)])
    }

    /// An `mluc` tag with one en-US record.
    static func encodeMLUC(_ text: String) -> [UInt8] {
        let units = Array(text.utf16)
        var w = header("mluc")
        w.uint32(1)
        w.uint32(12)
        w.signature("enUS")
        w.uint32(UInt32(2 * units.count))
        w.uint32(28)
        for u in units { w.uint16(u) }
        return w.bytes
    }

    /// A v2 `desc` (textDescriptionType) tag: ASCII only (other characters become “?”), empty Unicode
    /// and ScriptCode parts.
    static func encodeDesc(_ text: String) -> [UInt8] {
        let ascii = asciiBytes(text)
        var w = header("desc")
        w.uint32(UInt32(ascii.count + 1))
        w.bytes.append(contentsOf: ascii)
        w.uint8(0)
        w.uint32(0)  // Unicode language code
        w.uint32(0)  // Unicode count
        w.uint16(0)  // ScriptCode code
        w.uint8(0)  // ScriptCode count
        w.zeros(67)
        return w.bytes
    }

    /// A v2 `text` tag (NUL-terminated ASCII).
    static func encodeText(_ text: String) -> [UInt8] {
        var w = header("text")
        w.bytes.append(contentsOf: asciiBytes(text))
        w.uint8(0)
        return w.bytes
    }

    private static func asciiBytes(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? UInt8($0.value) : UInt8(ascii: "?") }
    }
}
