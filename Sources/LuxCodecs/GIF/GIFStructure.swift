/// The block structure of a GIF file, walked without decoding: the logical screen, and each frame's rectangle.
///
/// giflib allocates a frame's pixels from the size its descriptor announces, so every size is checked here, against
/// ``DecodingLimits``, before giflib sees the file.
struct GIFStructure {
    /// A frame's rectangle on the logical screen.
    struct Frame {
        var left: Int
        var top: Int
        var width: Int
        var height: Int
    }

    /// The logical screen (canvas) size.
    let width: Int
    let height: Int
    /// The frames in file order.
    let frames: [Frame]
    /// Whether the file has a global colour table.
    let hasGlobalColorTable: Bool

    /// Whether `raw` starts a GIF file (`GIF87a` or `GIF89a`).
    static func isGIF(_ raw: UnsafeRawBufferPointer) -> Bool {
        raw.count >= 6 && (raw[0..<6].elementsEqual("GIF87a".utf8) || raw[0..<6].elementsEqual("GIF89a".utf8))
    }

    /// Walks the blocks of `raw`.
    ///
    /// - Throws: ``CodecError/truncated(what:offset:)`` when a block runs past the end,
    ///   ``CodecError/malformed(what:offset:reason:)`` for an unknown block, and ``CodecError/limitExceeded(what:value:limit:)``
    ///   for a canvas or frame beyond `limits`.
    init(_ raw: UnsafeRawBufferPointer, limits: DecodingLimits, what: String) throws(CodecError) {
        guard Self.isGIF(raw) else { throw .malformed(what: what, offset: 0, reason: "no GIF87a/GIF89a signature") }
        var at = 6
        func need(_ n: Int, _ part: String) throws(CodecError) {
            guard raw.count - at >= n else { throw .truncated(what: "\(what): \(part)", offset: at) }
        }
        func u16(_ i: Int) -> Int { Int(raw[i]) | Int(raw[i + 1]) << 8 }
        /// Skips a sequence of data sub-blocks ending with a zero-length one.
        func skipSubBlocks(_ part: String) throws(CodecError) {
            while true {
                try need(1, part)
                let n = Int(raw[at])
                at += 1
                if n == 0 { return }
                try need(n, part)
                at += n
            }
        }
        try need(7, "the logical screen descriptor")
        width = u16(at)
        height = u16(at + 2)
        let packed = raw[at + 4]
        at += 7
        try limits.check(width: width, height: height, bytesPerPixel: 4, what: "\(what) canvas")
        hasGlobalColorTable = packed & 0x80 != 0
        if hasGlobalColorTable {
            let n = 3 << (Int(packed & 7) + 1)
            try need(n, "the global colour table")
            at += n
        }
        var frames: [Frame] = []
        scan: while true {
            try need(1, "a block")
            let introducer = raw[at]
            at += 1
            switch introducer {
            case 0x21:  // extension: label, then sub-blocks
                try need(1, "an extension label")
                at += 1
                try skipSubBlocks("an extension")
            case 0x2C:  // image descriptor
                try need(9, "an image descriptor")
                let frame = Frame(left: u16(at), top: u16(at + 2), width: u16(at + 4), height: u16(at + 6))
                let local = raw[at + 8]
                at += 9
                try limits.check(
                    width: frame.width, height: frame.height, bytesPerPixel: 1, what: "\(what) frame \(frames.count)")
                if local & 0x80 != 0 {
                    let n = 3 << (Int(local & 7) + 1)
                    try need(n, "a local colour table")
                    at += n
                } else if !hasGlobalColorTable {
                    throw .malformed(
                        what: "\(what) frame \(frames.count)", offset: at, reason: "there is no colour table for it")
                }
                try need(1, "the LZW code size")
                at += 1
                try skipSubBlocks("frame \(frames.count)'s image data")
                frames.append(frame)
            case 0x3B:  // trailer
                break scan
            default:
                throw .malformed(
                    what: what, offset: at - 1, reason: "unknown block introducer 0x\(String(introducer, radix: 16))")
            }
        }
        guard !frames.isEmpty else { throw .missingPixelData(what: what, reason: "the file holds no frame") }
        self.frames = frames
    }
}
