/// Where the strips or tiles of one image directory lie, validated against the file.
struct TIFFChunkLayout {
    let width: Int
    let height: Int
    let isTiled: Bool
    /// Chunk width in pixels (tile width, or the image width for strips).
    let chunkWidth: Int
    /// Chunk height in rows (tile length, or rows per strip).
    private(set) var chunkHeight: Int
    let across: Int
    private(set) var down: Int
    /// Planes stored separately (PlanarConfiguration 2): chunks repeat per plane.
    let separatePlanes: Int
    private(set) var offsets: [Int]
    private(set) var counts: [Int]

    var count: Int { offsets.count }

    /// Reads and checks StripOffsets/StripByteCounts or TileOffsets/TileByteCounts.
    ///
    /// - Throws: ``CodecError/missingPixelData(what:reason:)`` when the data lies beyond the end of the file
    ///   (stripped or header-only files), ``CodecError/truncated(what:offset:)`` when it is cut short, and
    ///   ``CodecError/malformed(what:offset:reason:)`` for inconsistent tags.
    init(
        parser p: TIFFParser, directory d: TIFFDirectory, width: Int, height: Int, planes: Int, limits: DecodingLimits,
        what: String
    ) throws(CodecError) {
        self.width = width
        self.height = height
        let fileSize = p.reader.count
        let hasTiles = d.has(TIFFTag.tileOffsets)
        let hasStrips = d.has(TIFFTag.stripOffsets)
        if hasTiles {
            guard let tw = try p.integer(d, TIFFTag.tileWidth), let tl = try p.integer(d, TIFFTag.tileLength), tw > 0,
                tl > 0
            else {
                throw .malformed(
                    what: "\(what) TileWidth/TileLength", offset: d.offset, reason: "missing or zero tile size")
            }
            guard tw <= limits.maxDimension, tl <= limits.maxDimension else {
                throw .limitExceeded(what: "\(what) tile dimension", value: max(tw, tl), limit: limits.maxDimension)
            }
            isTiled = true
            chunkWidth = tw
            chunkHeight = tl
        } else if hasStrips {
            isTiled = false
            chunkWidth = width
            let rps = try p.integer(d, TIFFTag.rowsPerStrip) ?? height
            chunkHeight = rps <= 0 ? height : min(rps, height)
        } else {
            throw .missingPixelData(what: what, reason: "the directory has neither strips nor tiles")
        }
        across = (width + chunkWidth - 1) / chunkWidth
        down = (height + chunkHeight - 1) / chunkHeight
        separatePlanes = planes
        let (expected, overflow) = (across * down).multipliedReportingOverflow(by: planes)
        guard !overflow, expected <= limits.maxChunkCount else {
            throw .limitExceeded(
                what: "\(what) \(hasTiles ? "tile" : "strip") count", value: overflow ? .max : expected,
                limit: limits.maxChunkCount)
        }
        let offsetsTag = hasTiles ? TIFFTag.tileOffsets : TIFFTag.stripOffsets
        let countsTag = hasTiles ? TIFFTag.tileByteCounts : TIFFTag.stripByteCounts
        let kind = hasTiles ? "tile" : "strip"
        if let oe = d[offsetsTag], oe.count < expected {
            throw .missingPixelData(
                what: what,
                reason:
                    "\(hasTiles ? "TileOffsets" : "StripOffsets") lists \(oe.count) of the \(expected) \(kind)s a \(width)×\(height) image needs (a stripped file?)"
            )
        }
        guard let oe = d[offsetsTag], oe.count == expected else {
            throw .malformed(
                what: "\(what) \(hasTiles ? "TileOffsets" : "StripOffsets")",
                offset: d[offsetsTag]?.entryOffset ?? d.offset,
                reason: "\(d[offsetsTag]?.count ?? 0) \(kind)s listed, \(expected) needed for \(width)×\(height)")
        }
        guard let ce = d[countsTag], ce.count == expected else {
            throw .malformed(
                what: "\(what) \(hasTiles ? "TileByteCounts" : "StripByteCounts")",
                offset: d[countsTag]?.entryOffset ?? d.offset,
                reason: "\(d[countsTag]?.count ?? 0) byte counts for \(expected) \(kind)s")
        }
        offsets = try p.integers(d, offsetsTag) ?? []
        counts = try p.integers(d, countsTag) ?? []
        var missing = 0
        for i in 0..<expected {
            let o = offsets[i]
            let n = counts[i]
            if o >= fileSize || n == 0 { missing += 1 }
        }
        if missing == expected {
            let first = "at byte \(offsets[0]), \(counts[0]) bytes"
            let reason =
                expected == 1
                ? "its only \(kind) (\(first)) lies beyond the end of the \(fileSize)-byte file"
                : "all \(expected) \(kind)s (the first \(first)) lie beyond the end of the \(fileSize)-byte file or are empty"
            throw .missingPixelData(what: what, reason: reason)
        }
        for i in 0..<expected {
            let o = offsets[i]
            let n = counts[i]
            guard o >= 8 || n == 0 else {
                throw .malformed(
                    what: "\(what) \(kind) \(i)", offset: o, reason: "data offset \(o) is inside the header")
            }
            guard n > 0, o <= fileSize, n <= fileSize - o else {
                throw .truncated(what: "\(what) \(kind) \(i) (\(n) bytes)", offset: o)
            }
        }
    }

    /// The pixel rectangle chunk `i` covers, clipped to the image, and its plane.
    func region(_ i: Int) -> (x: Int, y: Int, width: Int, height: Int, plane: Int) {
        let perPlane = across * down
        let plane = i / perPlane
        let k = i % perPlane
        let x = (k % across) * chunkWidth
        let y = (k / across) * chunkHeight
        return (x, y, min(chunkWidth, width - x), min(chunkHeight, height - y), plane)
    }

    /// Rows stored in chunk `i` (full tile height for tiles, the clipped height for strips).
    func storedRows(_ i: Int) -> Int { isTiled ? chunkHeight : region(i).height }

    /// The layout with uncompressed strips of more than `maxBytes` cut into strips of fewer rows (at least one),
    /// each `rowBytes` bytes a row, so a region reader reads and keeps only the rows a region needs: a TIFF written
    /// as one strip of the whole image is then read by rows, never whole.
    ///
    /// The cut keeps one height for every strip but the last of each plane: with several strips a plane, the new
    /// height divides the old. A layout whose strips hold fewer bytes than their rows need is returned unchanged
    /// (decoding reports it).
    func splittingStrips(rowBytes: Int, maxBytes: Int, limits: DecodingLimits) -> TIFFChunkLayout {
        guard !isTiled, rowBytes > 0, chunkHeight * rowBytes > maxBytes else { return self }
        let most = max(1, maxBytes / rowBytes)
        let rows = down == 1 ? most : (1...most).last { chunkHeight % $0 == 0 }!
        guard rows < chunkHeight else { return self }
        var split = self
        split.chunkHeight = rows
        split.down = (height + rows - 1) / rows
        guard split.down * separatePlanes <= limits.maxChunkCount else { return self }
        split.offsets = []
        split.counts = []
        split.offsets.reserveCapacity(split.down * separatePlanes)
        split.counts.reserveCapacity(split.down * separatePlanes)
        for i in 0..<count {
            let stored = storedRows(i)
            guard counts[i] >= stored * rowBytes else { return self }
            for first in stride(from: 0, to: stored, by: rows) {
                split.offsets.append(offsets[i] + first * rowBytes)
                split.counts.append(min(rows, stored - first) * rowBytes)
            }
        }
        return split
    }
}
