/// A block of image data (a strip, a tile, an embedded JPEG) placed after the directories.
enum TIFFBlob {
    /// Bytes ready to copy.
    case bytes([UInt8])
    /// `count` bytes produced straight into the output by `fill` (avoids a copy for large strips).
    case fill(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void)
    /// `count` bytes already in the file at `offset` (streamed strips); only the directory points to them.
    case placed(offset: Int, count: Int)

    var count: Int {
        switch self {
        case .bytes(let b): b.count
        case .fill(let n, _): n
        case .placed(_, let n): n
        }
    }
}

/// Strips or tiles of one directory: the blobs and the tags that point to them.
struct TIFFImageData {
    /// StripOffsets (273) / TileOffsets (324) / JPEGInterchangeFormat (513).
    var offsetsTag: UInt16
    /// StripByteCounts (279) / TileByteCounts (325) / JPEGInterchangeFormatLength (514).
    var countsTag: UInt16
    var blobs: [TIFFBlob]
}

/// A directory to write: plain fields, child directories reached through pointer tags, and image data.
struct TIFFOutputDirectory {
    var fields: [UInt16: TIFFValue] = [:]
    /// Child directories by pointer tag: SubIFDs (330), ExifIFD (34665), GPSInfo (34853), InteropIFD (40965).
    var children: [UInt16: [TIFFOutputDirectory]] = [:]
    var data: TIFFImageData?
    /// The directory the next-IFD link points to (a JPEG Exif block's IFD1, the thumbnail), stored as zero or one
    /// element because a struct cannot hold itself.
    private var following: [TIFFOutputDirectory] = []

    /// The directory after this one in the IFD chain (`nil`: the link is 0).
    var next: TIFFOutputDirectory? {
        get { following.first }
        set { following = newValue.map { [$0] } ?? [] }
    }

    init(fields: [UInt16: TIFFValue] = [:]) { self.fields = fields }

    subscript(tag: UInt16) -> TIFFValue? {
        get { fields[tag] }
        set { fields[tag] = newValue }
    }
}

/// Lays out and writes a classic TIFF file: header, directories in depth-first order (each followed by its out-of-line
/// values), then image data.
///
/// Entries are sorted by tag, every directory and value starts on an even offset, and next-IFD links are 0 (trees use
/// SubIFDs), as DNG readers expect (FORMATS.md §1), except where a directory has a ``TIFFOutputDirectory/next`` (an
/// Exif block's IFD1).
enum TIFFEncoder {
    private struct Entry {
        var tag: UInt16
        var type: TIFFFieldType
        var count: Int
        var payload: Payload
    }

    private enum Payload {
        case bytes([UInt8])
        case children([Int])  // node indices
        case blobOffsets([Int])  // blob indices
        case blobCounts([Int])
    }

    private struct Node {
        var entries: [Entry] = []
        var offset = 0
        var valueOffsets: [Int] = []  // per entry, absolute offset of out-of-line values (or -1)
        var size = 0
        var next: Int?  // node index of the next directory in the chain
    }

    static func encode(_ root: TIFFOutputDirectory, bigEndian: Bool = false) -> [UInt8] {
        var file = header(bigEndian: bigEndian, firstDirectory: 8)
        file += encodeDirectories(root, at: 8, bigEndian: bigEndian).bytes
        return file
    }

    /// The 8-byte classic TIFF header pointing at the first directory.
    static func header(bigEndian: Bool, firstDirectory: Int) -> [UInt8] {
        var w = ByteWriter(bigEndian: bigEndian, capacity: 8)
        w.u8(bigEndian ? 0x4D : 0x49)
        w.u8(bigEndian ? 0x4D : 0x49)
        w.u16(42)
        w.u32(UInt32(firstDirectory))
        return w.bytes
    }

    /// The directories (and their values and non-placed blobs) laid out from file offset `start` (rounded up
    /// to even): the bytes to write there and the offset of the root directory.
    static func encodeDirectories(_ root: TIFFOutputDirectory, at start: Int, bigEndian: Bool) -> (
        bytes: [UInt8], rootOffset: Int
    ) {
        var nodes: [Node] = []
        var blobs: [TIFFBlob] = []
        func add(_ dir: TIFFOutputDirectory) -> Int {
            let index = nodes.count
            nodes.append(Node())
            var entries: [Entry] = dir.fields.map { tag, value in
                Entry(
                    tag: tag, type: value.fieldType, count: value.count,
                    payload: .bytes(value.encoded(bigEndian: bigEndian)))
            }
            for (tag, children) in dir.children.sorted(by: { $0.key < $1.key }) where !children.isEmpty {
                let indices = children.map { add($0) }
                entries.append(Entry(tag: tag, type: .long, count: indices.count, payload: .children(indices)))
            }
            if let data = dir.data, !data.blobs.isEmpty {
                let first = blobs.count
                blobs.append(contentsOf: data.blobs)
                let ids = Array(first..<blobs.count)
                entries.append(Entry(tag: data.offsetsTag, type: .long, count: ids.count, payload: .blobOffsets(ids)))
                entries.append(Entry(tag: data.countsTag, type: .long, count: ids.count, payload: .blobCounts(ids)))
            }
            entries.sort { $0.tag < $1.tag }
            nodes[index].entries = entries
            if let next = dir.next { nodes[index].next = add(next) }
            return index
        }
        _ = add(root)

        // Layout: directories and their values, then blobs.
        var position = start + (start & 1)
        for i in nodes.indices {
            position += position & 1
            nodes[i].offset = position
            position += 2 + 12 * nodes[i].entries.count + 4
            nodes[i].valueOffsets = nodes[i].entries.map { e in
                let n = e.count * e.type.size
                guard n > 4 else { return -1 }
                position += position & 1
                defer { position += n }
                return position
            }
        }
        var blobOffsets: [Int] = []
        blobOffsets.reserveCapacity(blobs.count)
        for b in blobs {
            if case .placed(let offset, _) = b {
                blobOffsets.append(offset)
                continue
            }
            position += position & 1
            blobOffsets.append(position)
            position += b.count
        }
        let total = position
        precondition(total <= Int(UInt32.max), "TIFF output exceeds 4 GiB; BigTIFF writing is not implemented")

        let bytes = [UInt8](unsafeUninitializedCapacity: total - start) { buffer, count in
            // Absolute file offsets index `out`, which begins at `start`.
            let out = UnsafeMutableRawBufferPointer(buffer)
            out.initializeMemory(as: UInt8.self, repeating: 0)
            func put16(_ v: UInt16, _ at: Int) {
                out.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, toByteOffset: at - start, as: UInt16.self)
            }
            func put32(_ v: UInt32, _ at: Int) {
                out.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, toByteOffset: at - start, as: UInt32.self)
            }
            for node in nodes {
                var p = node.offset
                put16(UInt16(node.entries.count), p)
                p += 2
                for (k, e) in node.entries.enumerated() {
                    put16(e.tag, p)
                    put16(e.type.rawValue, p + 2)
                    put32(UInt32(e.count), p + 4)
                    let target = node.valueOffsets[k]
                    if target >= 0 { put32(UInt32(target), p + 8) }
                    let dst = target >= 0 ? target : p + 8
                    switch e.payload {
                    case .bytes(let b):
                        for (j, byte) in b.enumerated() { out[dst - start + j] = byte }
                    case .children(let ids):
                        for (j, id) in ids.enumerated() { put32(UInt32(nodes[id].offset), dst + 4 * j) }
                    case .blobOffsets(let ids):
                        for (j, id) in ids.enumerated() { put32(UInt32(blobOffsets[id]), dst + 4 * j) }
                    case .blobCounts(let ids):
                        for (j, id) in ids.enumerated() { put32(UInt32(blobs[id].count), dst + 4 * j) }
                    }
                    p += 12
                }
                put32(node.next.map { UInt32(nodes[$0].offset) } ?? 0, p)
            }
            for (i, b) in blobs.enumerated() {
                let at = blobOffsets[i] - start
                switch b {
                case .bytes(let bytes):
                    bytes.withUnsafeBytes { src in
                        if let base = src.baseAddress {
                            (out.baseAddress! + at).copyMemory(from: base, byteCount: src.count)
                        }
                    }
                case .fill(let n, let fill):
                    fill(UnsafeMutableRawBufferPointer(rebasing: out[at..<at + n]))
                case .placed:
                    break
                }
            }
            count = total - start
        }
        return (bytes, nodes[0].offset)
    }
}
