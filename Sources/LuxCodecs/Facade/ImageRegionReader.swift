public import FoundationEssentials
public import LuxColor
public import LuxPixels
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads rectangles of an image file on demand, so a large image can be processed in bounded memory (the
/// role of a region-reading decoder behind a render engine's image provider).
///
/// TIFF files are read a strip or tile at a time: only the directory is mapped, each chunk's bytes are read
/// with `pread` when a region needs them, and a small cache of decoded chunks serves neighbouring regions.
/// HEIC files are decoded by libheif into planes (3 bytes per pixel at 8 bits) and each region is interleaved from
/// them when it is read, so no RGBA copy of the whole image is made. JPEGs and opaque, non-interlaced PNGs are
/// decoded top to bottom as regions ask for their rows, keeping a window of recent rows (``RowWindow``). Other
/// files (PNGs with alpha, WebP, DNG previews, TIFFs and JPEGs whose orientation must be applied) are decoded once,
/// whole, on first use. Regions come out in ``pixelFormat`` — what ``ImageFile/read(url:options:)`` would
/// produce — and ``colorSpace``.
///
/// The reader is thread-safe: render workers may read regions concurrently.
///
/// ```swift
/// let reader = try ImageRegionReader(url: URL(fileURLWithPath: "scan.tif"))
/// let corner = try reader.read(x: 0, y: 0, width: 512, height: 512)
/// ```
public final class ImageRegionReader: Sendable {
    /// Image width in pixels.
    public let width: Int
    /// Image height in pixels.
    public let height: Int
    /// The format of the regions.
    public let pixelFormat: PixelFormat
    /// The colour space of the pixels (from the embedded profile, or the format's default).
    public let colorSpace: ColorSpace?
    /// Whether colour values are premultiplied by alpha.
    public let isPremultiplied: Bool
    /// Whether every pixel is opaque because the file stores no alpha (TIFFs without an alpha sample, JPEGs) or,
    /// for an image decoded whole, every alpha value is 1: the regions then carry alpha 1.
    public let isOpaque: Bool
    /// The file's metadata.
    public let metadata: ImageMetadata
    /// The file's format.
    public let format: ImageFormat
    /// The most bytes of decoded chunks kept for neighbouring regions.
    public let cacheLimit: Int

    private let backing: Backing
    private let cache: Mutex<ChunkCache>

    private enum Backing: Sendable {
        case tiff(TIFFChunks)
        case heif(HEIFDecodedImage)
        case rows(RowWindow)
        case whole(PixelBuffer)
    }

    /// Opens `url` and reads its headers (pixels are read by ``read(x:y:width:height:into:)``).
    ///
    /// - Parameters:
    ///   - options: Limits (checked before anything is allocated), orientation (TIFFs whose orientation is to
    ///     be applied are decoded whole), and the thread count for whole decodes.
    ///   - cacheLimit: The most bytes of decoded chunks to keep (default 12 MiB): the cache holds the chunk rows of
    ///     the tallest region read so far and two more, within this limit, and at least one chunk row.
    /// - Throws: ``CodecError`` for unreadable, unknown or damaged files.
    public init(url: URL, options: DecodingOptions = .default, cacheLimit: Int = 12 << 20) throws(CodecError) {
        self.cacheLimit = cacheLimit
        cache = Mutex(ChunkCache())
        let heif = try Self.openHEIF(url, options: options)
        var chunks = heif == nil ? try TIFFChunks(url: url, options: options) : nil
        if let source = chunks?.source {
            let lutProfile = try ProfileConversion.profileNeedingConversion(
                source.metadata.iccProfile, model: source.layout.output.channelCount == 1 ? .gray : .rgb,
                name: url.lastPathComponent)
            // CMYK, or a profile Lux's engine cannot describe: the whole image is converted while decoding.
            if source.layout.photometric == 5 || lutProfile != nil { chunks = nil }
        }
        let rows = heif == nil && chunks == nil ? try Self.openRows(url, options: options) : nil
        if chunks != nil, options.imageIndex != 0 || options.component != .main {
            throw .unsupported(
                what: "image \(options.imageIndex) (\(options.component)) of a TIFF file",
                reason: "only HEIF files hold several images, thumbnails and auxiliary images")
        }
        if let heif {
            width = heif.image.width
            height = heif.image.height
            pixelFormat = heif.image.pixelFormat
            colorSpace = heif.colorSpace
            isPremultiplied = heif.image.isPremultiplied
            isOpaque = !heif.image.hasAlpha
            metadata = heif.metadata
            format = heif.format
            backing = .heif(heif.image)
        } else if let rows {
            width = rows.window.width
            height = rows.window.height
            pixelFormat = rows.window.format
            colorSpace = rows.colorSpace
            isPremultiplied = false
            isOpaque = true
            metadata = rows.metadata
            format = rows.window.codec == .jpeg ? .jpeg : .png
            backing = .rows(rows.window)
        } else if let chunks {
            let l = chunks.source.layout
            width = l.width
            height = l.height
            pixelFormat = l.output
            colorSpace = chunks.source.colorSpace
            isPremultiplied = l.premultiplied
            isOpaque = l.alphaIndex == nil
            metadata = chunks.source.metadata
            format = .tiff
            backing = .tiff(chunks)
        } else {
            let file = try ImageFile.read(url: url, options: options)
            width = file.pixels.width
            height = file.pixels.height
            pixelFormat = file.pixels.format
            colorSpace = file.pixels.colorSpace
            isPremultiplied = file.pixels.isPremultiplied
            isOpaque = file.format == .jpeg || !IntegerEncoding.writesAlpha(file.pixels, policy: .automatic)
            metadata = file.metadata
            format = file.format
            backing = .whole(file.pixels)
        }
    }

    /// The picture as 8-bit R, G and B planes a decoder holds (an 8-bit RGB HEIC's), whose interleaved values are
    /// exactly what ``read(x:y:width:height:into:)`` gives; valid while the reader lives.
    var planarRGB8: PlanarRGB8? {
        guard case .heif(let image) = backing else { return nil }
        return image.planarRGB8
    }

    /// Whether the regions are an uncompressed 8-bit RGB TIFF's strips, whose stored rows
    /// ``readStoredRGB8(rows:into:)`` reads.
    var hasStoredRGB8Rows: Bool {
        guard case .tiff(let tiff) = backing else { return false }
        return tiff.storesRGB8Rows
    }

    /// Reads `rows` of an uncompressed 8-bit RGB TIFF as the file stores them — 3 bytes a pixel, `width` × 3 bytes a
    /// row, the values ``read(x:y:width:height:into:)`` widens to RGBA with alpha 255 — into `destination`, with no
    /// decode and no cache (see ``hasStoredRGB8Rows``).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for another file or rows outside the image; the file's read
    ///   errors.
    func readStoredRGB8(rows: Range<Int>, into destination: UnsafeMutableRawPointer) throws(CodecError) {
        guard case .tiff(let tiff) = backing, tiff.storesRGB8Rows else {
            throw .invalidArgument("the image does not store uncompressed 8-bit RGB strips")
        }
        guard rows.lowerBound >= 0, rows.upperBound <= height else {
            throw .invalidArgument("rows \(rows) are not inside the \(height) rows of the image")
        }
        try tiff.readStoredRows(rows, into: destination)
    }

    /// The JPEG decode behind the regions, when they are a JPEG's rows decoded top to bottom (not decoded whole).
    var jpegRows: RowWindow? {
        guard case .rows(let window) = backing, window.codec == .jpeg else { return nil }
        return window
    }

    /// Reads a rectangle of the image into `destination` (at least `width` × `height` pixels of
    /// ``pixelFormat``; its row 0 receives image row `y`).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for a rectangle outside the image; the decoder's errors
    ///   for damaged chunks.
    public func read(x: Int, y: Int, width w: Int, height h: Int, into destination: MutableRawPlane) throws(CodecError)
    {
        guard x >= 0, y >= 0, w > 0, h > 0, x + w <= width, y + h <= height else {
            throw .invalidArgument("the region \(x),\(y) \(w)×\(h) is not inside the \(width)×\(height) image")
        }
        guard destination.width >= w, destination.height >= h else {
            throw .invalidArgument("a \(destination.width)×\(destination.height) destination cannot hold \(w)×\(h)")
        }
        let pixelBytes = pixelFormat.bytesPerPixel()
        switch backing {
        case .heif(let image):
            image.read(x: x, y: y, width: w, height: h, into: destination)
        case .rows(let window):
            try window.read(x: x, y: y, width: w, height: h, into: destination)
        case .whole(let pixels):
            pixels.withUnsafePlane { src in
                for r in 0..<h {
                    destination.row(r).copyMemory(from: src.row(y + r) + x * pixelBytes, byteCount: w * pixelBytes)
                }
            }
        case .tiff(let tiff):
            let c = tiff.source.chunks
            cache.withLock { $0.tallestRequest = max($0.tallestRequest, h) }
            for cy in (y / c.chunkHeight)...((y + h - 1) / c.chunkHeight) {
                for cx in (x / c.chunkWidth)...((x + w - 1) / c.chunkWidth) {
                    let cell = try decodedCell(cy * c.across + cx, tiff)
                    // The overlap of the cell and the region, in image coordinates.
                    let x0 = max(x, cx * c.chunkWidth)
                    let x1 = min(x + w, (cx + 1) * c.chunkWidth, width)
                    let y0 = max(y, cy * c.chunkHeight)
                    let y1 = min(y + h, (cy + 1) * c.chunkHeight, height)
                    guard x1 > x0, y1 > y0 else { continue }
                    cell.withUnsafePlane { src in
                        for row in y0..<y1 {
                            (destination.row(row - y) + (x0 - x) * pixelBytes).copyMemory(
                                from: src.row(row - cy * c.chunkHeight) + (x0 - cx * c.chunkWidth) * pixelBytes,
                                byteCount: (x1 - x0) * pixelBytes)
                        }
                    }
                }
            }
        }
    }

    /// The selected image of a HEIF file decoded to planes, or `nil` for other formats.
    private static func openHEIF(_ url: URL, options: DecodingOptions) throws(CodecError) -> HEIFSelection? {
        let file = try FileContents(url, limit: options.limits.maxByteCount)
        return try withExtendedLifetime(file) { () throws(CodecError) -> HEIFSelection? in
            guard try HEIF.check(file.bytes) else { return nil }
            return try HEIF.open(file.bytes, options: options.budgeted())
        }
    }

    /// A JPEG or PNG to decode by rows, or `nil` for other formats and for files decoded whole (see
    /// ``openJPEG(_:options:)`` and ``RowWindow/init(png:header:options:)``).
    private static func openRows(_ url: URL, options: DecodingOptions) throws(CodecError) -> (
        window: RowWindow, metadata: ImageMetadata, colorSpace: ColorSpace
    )? {
        guard options.imageIndex == 0, options.component == .main else { return nil }
        let file = try FileContents(url, limit: options.limits.maxByteCount)
        switch try ImageFile.detect(file.bytes) {
        case .jpeg: return try openJPEG(file, name: url.lastPathComponent, options: options)
        case .png: return try openPNG(file, name: url.lastPathComponent, options: options)
        default: return nil
        }
    }

    /// A JPEG to decode by rows, or `nil` for one decoded whole: another image than the main one asked for
    /// (``ImageFile/read(url:options:)`` reports it), an orientation to apply, a profile Lux's engine cannot
    /// describe, CMYK, or restart markers that let the whole decode run on several threads.
    private static func openJPEG(_ file: FileContents, name: String, options: DecodingOptions) throws(CodecError)
        -> (window: RowWindow, metadata: ImageMetadata, colorSpace: ColorSpace)?
    {
        let header = try JPEGHeader(file.bytes)
        try JPEG.checkDecodable(header)
        let gray = header.componentCount == 1
        var metadata = ImageMetadata()
        if let e = header.exif, let exif = try? EXIF(tiffBytes: e) { metadata.exif = exif }
        metadata.xmp = header.xmp
        metadata.iccProfile = header.iccProfile
        if options.appliesOrientation, let o = metadata.exif.orientation, o != .up { return nil }
        if try ProfileConversion.profileNeedingConversion(header.iccProfile, model: gray ? .gray : .rgb, name: name)
            != nil
        {
            return nil
        }
        guard let window = try RowWindow(jpeg: file, header: header, options: options) else { return nil }
        return (window, metadata, JPEG.colorSpace(icc: header.iccProfile, exif: metadata.exif, gray: gray))
    }

    /// A PNG to decode by rows, or `nil` for one decoded whole: with alpha, interlaced, an orientation to apply or
    /// a profile Lux's engine cannot describe.
    private static func openPNG(_ file: FileContents, name: String, options: DecodingOptions) throws(CodecError)
        -> (window: RowWindow, metadata: ImageMetadata, colorSpace: ColorSpace)?
    {
        let budgeted = options.budgeted()
        let header = try PNGHeader(
            file.bytes, inflateLimit: min(PNGHeader.defaultInflateLimit, budgeted.remainingBytes))
        let metadata = PNG.metadata(header)
        if options.appliesOrientation, let o = metadata.exif.orientation, o != .up { return nil }
        if try ProfileConversion.profileNeedingConversion(
            header.iccProfile, model: header.isGray ? .gray : .rgb, name: name) != nil
        {
            return nil
        }
        guard let window = try RowWindow(png: file, header: header, options: options) else { return nil }
        return (window, metadata, PNG.colorSpace(header))
    }

    /// Reads a rectangle of the image into a new buffer (with the reader's colour space).
    public func read(x: Int, y: Int, width w: Int, height h: Int) throws(CodecError) -> PixelBuffer {
        var out = PixelBuffer(width: max(w, 1), height: max(h, 1), format: pixelFormat)
        let plane = out.unsafeSharedMutablePlane()
        try read(x: x, y: y, width: w, height: h, into: plane)
        out.colorSpace = colorSpace
        out.isPremultiplied = isPremultiplied
        return out
    }

    /// Cell `index` (all planes of one strip or tile position), from the cache or decoded now.
    private func decodedCell(_ index: Int, _ tiff: TIFFChunks) throws(CodecError) -> PixelBuffer {
        if let hit = cache.withLock({ $0.lookup(index) }) { return hit }
        let c = tiff.source.chunks
        let cx = index % c.across
        let cy = index / c.across
        let origin = (x: cx * c.chunkWidth, y: cy * c.chunkHeight)
        let cellWidth = min(c.chunkWidth, width - origin.x)
        let cellHeight = min(c.chunkHeight, height - origin.y)
        // An evicted cell of the same size is refilled instead of allocating (and zeroing) a new one.
        let cell =
            cache.withLock { $0.takeSpare(width: cellWidth, height: cellHeight) }
            ?? PixelBuffer(width: cellWidth, height: cellHeight, format: pixelFormat)
        let plane = cell.unsafeSharedMutablePlane()
        for p in 0..<c.separatePlanes {
            try tiff.decode(index + p * c.across * c.down, into: plane, origin: origin)
        }
        withExtendedLifetime(cell) {}
        cache.withLock { cache in
            // The cells of the tallest region asked for, two more cell rows for a span that straddles them, and
            // no more (up to `cacheLimit`): a streaming render asks for the rows of one span at a time, strip
            // after strip, and the next strip's span begins inside the last one's most recent cells.
            let rowBytes = c.chunkHeight * width * pixelFormat.bytesPerPixel()
            let needed = ((cache.tallestRequest + c.chunkHeight - 1) / c.chunkHeight + 2) * rowBytes
            let limit = max(
                min(cacheLimit, needed), cell.height * cell.width * pixelFormat.bytesPerPixel() * (c.across + 1))
            cache.insert(cell, for: index, limit: limit)
        }
        return cell
    }
}

/// Recently decoded cells, least recently used first out.
private struct ChunkCache: Sendable {
    private var cells: [Int: PixelBuffer] = [:]
    private var order: [Int] = []
    private var bytes = 0
    /// The most rows one read has asked for.
    var tallestRequest = 0

    static func size(_ cell: PixelBuffer) -> Int { cell.width * cell.height * cell.format.bytesPerPixel() }

    mutating func lookup(_ index: Int) -> PixelBuffer? {
        guard let cell = cells[index] else { return nil }
        if let k = order.lastIndex(of: index), k != order.count - 1 {
            order.remove(at: k)
            order.append(index)
        }
        return cell
    }

    mutating func insert(_ cell: PixelBuffer, for index: Int, limit: Int) {
        guard cells[index] == nil else { return }
        cells[index] = cell
        order.append(index)
        bytes += Self.size(cell)
        while bytes > limit, order.count > 1 {
            let old = order.removeFirst()
            if let gone = cells.removeValue(forKey: old) {
                bytes -= Self.size(gone)
                spares.append(gone)
                if spares.count > Self.spareLimit { spares.removeFirst() }
            }
        }
    }

    /// The last few evicted cells, kept for reuse (a decode usually follows an eviction closely; with several
    /// workers decoding, an evicted cell may still be being read when the next decode starts).
    private var spares: [PixelBuffer] = []
    private static let spareLimit = 3

    /// An evicted cell of this size that no reader still holds, to be overwritten.
    mutating func takeSpare(width: Int, height: Int) -> PixelBuffer? {
        for i in spares.indices.reversed() where spares[i].width == width && spares[i].height == height {
            var cell = spares.remove(at: i)
            if cell.isUniquelyReferenced { return cell }
            spares.insert(cell, at: i)
        }
        return nil
    }
}

/// A TIFF file opened for chunk-at-a-time reading: the directory is parsed from a read-only mapping, chunk
/// bytes are read with `pread` (so only what a render needs is ever resident).
private final class TIFFChunks: Sendable {
    let source: TIFF.Source
    private let descriptor: Int32
    private let path: String
    private let fileSize: Int

    /// `nil` when the file is not a plain TIFF or its orientation must be applied (decode it whole).
    init?(url: URL, options: DecodingOptions) throws(CodecError) {
        let data = try FileIO.read(url, limit: options.limits.maxByteCount)
        let parsed: TIFF.Source? = try withBytes(of: data) { raw throws(CodecError) -> TIFF.Source? in
            guard try ImageFile.detect(raw) == .tiff else { return nil }
            return try TIFF.Source(try TIFFParser(raw), limits: options.limits)
        }
        guard var parsed else { return nil }
        if options.appliesOrientation, let o = parsed.metadata.exif.orientation, o != .up { return nil }
        if parsed.format.compression == 1, parsed.layout.photometric != 6 {
            // Uncompressed strips are read in pieces of at most 256 KiB, whatever rows per strip the writer chose.
            let f = parsed.format
            let rowBytes = (parsed.chunks.chunkWidth * f.samplesPerPixel * f.bitsPerSample + 7) / 8
            parsed.chunks = parsed.chunks.splittingStrips(
                rowBytes: rowBytes, maxBytes: 256 << 10, limits: options.limits)
        }
        path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        descriptor = fd
        fileSize = data.count
        source = parsed
    }

    /// Blocks the compressed bytes of a chunk are read into, reused (one per thread reading at once).
    private let blocks = Mutex(ReadBlocks())

    deinit { close(descriptor) }

    /// Reads and decodes chunk `i` into `out`, whose pixel (0, 0) is image pixel `origin`.
    func decode(_ i: Int, into out: MutableRawPlane, origin: (x: Int, y: Int)) throws(CodecError) {
        let offset = source.chunks.offsets[i]
        let count = source.chunks.counts[i]
        guard offset >= 0, count >= 0, offset + count <= fileSize else {
            throw .truncated(what: "TIFF chunk \(i)", offset: offset)
        }
        let block = blocks.withLock { $0.take(count) }.bytes
        defer { blocks.withLock { $0.give(ReadBlock(bytes: block)) } }
        try read(into: block.baseAddress!, count: count, at: offset)
        try source.decodeChunk(i, data: UnsafeRawBufferPointer(rebasing: block[0..<count]), into: out, origin: origin)
    }

    /// Whether the file stores uncompressed, chunky 8-bit RGB strips without alpha: its rows are the regions' values
    /// as they lie in the file.
    var storesRGB8Rows: Bool {
        let l = source.layout
        return !source.chunks.isTiled && l.compression == 1 && l.bitsPerSample == 8 && l.samplesPerPixel == 3
            && l.photometric == 2 && !l.planar && !l.isFloat && l.alphaIndex == nil && l.output == .rgba8
    }

    /// Reads `rows` as stored (see ``storesRGB8Rows``) into `destination`, `width` × 3 bytes a row.
    func readStoredRows(_ rows: Range<Int>, into destination: UnsafeMutableRawPointer) throws(CodecError) {
        let c = source.chunks
        let rowBytes = c.width * 3
        var y = rows.lowerBound
        while y < rows.upperBound {
            let i = y / c.chunkHeight
            let first = y - i * c.chunkHeight
            let n = min(rows.upperBound, (i + 1) * c.chunkHeight) - y
            let offset = c.offsets[i] + first * rowBytes
            guard c.counts[i] >= (first + n) * rowBytes, offset + n * rowBytes <= fileSize else {
                throw .truncated(what: "TIFF strip \(i)", offset: c.offsets[i])
            }
            try read(into: destination + (y - rows.lowerBound) * rowBytes, count: n * rowBytes, at: offset)
            y += n
        }
    }

    /// Reads `count` bytes of the file at `offset`.
    private func read(into destination: UnsafeMutableRawPointer, count: Int, at offset: Int) throws(CodecError) {
        var got = 0
        while got < count {
            let n = pread(descriptor, destination + got, count - got, off_t(offset + got))
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { throw .io(path: path, reason: "the file ended early") }
            got += n
        }
    }
}

/// Memory that the bytes of one chunk are read into.
private struct ReadBlock: @unchecked Sendable {
    // @unchecked: a block is used by one reading thread at a time; it changes hands under the pool's lock.
    let bytes: UnsafeMutableRawBufferPointer
}

/// Reusable memory for chunk bytes: reading every chunk into a fresh array would zero it and spread freed
/// blocks over the allocator's per-thread arenas.
private struct ReadBlocks: ~Copyable {
    private var idle: [ReadBlock] = []

    /// A block of at least `count` bytes (contents unspecified).
    mutating func take(_ count: Int) -> ReadBlock {
        if let i = idle.firstIndex(where: { $0.bytes.count >= count }) { return idle.remove(at: i) }
        return ReadBlock(bytes: .allocate(byteCount: max(count, 1), alignment: 16))
    }

    /// Returns a block for reuse (the smallest are freed beyond a few).
    mutating func give(_ block: ReadBlock) {
        idle.append(block)
        if idle.count > 4 {
            idle.sort { $0.bytes.count > $1.bytes.count }
            idle.removeLast().bytes.deallocate()
        }
    }

    deinit { for b in idle { b.bytes.deallocate() } }
}
