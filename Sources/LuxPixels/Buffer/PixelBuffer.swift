public import LuxColor

/// A two-dimensional block of pixels in memory, with its format, colour space and metadata.
///
/// `PixelBuffer` is a copy-on-write value over an aligned allocation: copies share memory until one of
/// them is mutated. Rows of the buffers it allocates start on 64-byte boundaries (a buffer a decoder lends
/// from a memory-mapped file need not; it copies before its first write). ``view(x:y:width:height:)`` returns a zero-copy
/// window onto a sub-rectangle. Raw memory is lent to closures (``withUnsafePlane(_:_:)``), never
/// returned.
///
/// ```swift
/// var buffer = PixelBuffer(width: 640, height: 480, format: .rgbaFloat, colorSpace: .displayP3)
/// buffer.setPixel(SIMD4(1, 0, 0, 1), x: 10, y: 20)
/// let half = buffer.converted(to: .rgbaHalf)
/// ```
public struct PixelBuffer: @unchecked Sendable {
    // @unchecked: the storage class is only written through `withUnsafeMutablePlane`, which copies it
    // first unless this value is its only owner; engine code that writes disjoint tiles through
    // `unsafeSharedMutablePlane` owns that synchronisation.
    var storage: PixelStorage
    var planes: [PlaneLayout]

    /// The pixel format.
    public let format: PixelFormat
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The colour space of the values, if known.
    public var colorSpace: ColorSpace?
    /// Attachments that travel with the pixels (EXIF-like values).
    public var metadata: [String: MetadataValue]
    /// Whether colour values are premultiplied by alpha.
    public var isPremultiplied: Bool

    /// Where one plane of this buffer (or view) lives in the storage.
    struct PlaneLayout: Hashable {
        var offset: Int
        var bytesPerRow: Int
        var width: Int
        var height: Int
    }

    /// Creates a zero-filled buffer.
    ///
    /// - Precondition: `width > 0`, `height > 0`.
    public init(
        width: Int, height: Int, format: PixelFormat, colorSpace: ColorSpace? = nil,
        metadata: [String: MetadataValue] = [:]
    ) {
        self.init(width: width, height: height, format: format, colorSpace: colorSpace, mapsPages: false)
        self.metadata = metadata
    }

    /// Creates a zero-filled buffer; `mapsPages` makes its memory a page map (``PageMapping``) whatever its size.
    ///
    /// The kernel then zeroes each page as it is first written, by the thread that writes it, where a heap block
    /// is zeroed in one pass by the allocating thread: for a buffer written in full right after it is made, such
    /// as a strip of a streaming render (4 MB for 256 rows of 4032 RGBA8 pixels), that pass is serial time saved.
    ///
    /// - Precondition: `width > 0`, `height > 0`.
    package init(width: Int, height: Int, format: PixelFormat, colorSpace: ColorSpace?, mapsPages: Bool) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size, not \(width)×\(height)")
        let (layouts, total) = Self.layout(width: width, height: height, format: format)
        self.init(
            storage: PixelStorage(byteCount: total, mapsPages: mapsPages), planes: layouts, format: format,
            width: width, height: height, colorSpace: colorSpace, metadata: [:])
    }

    init(
        storage: PixelStorage, planes: [PlaneLayout], format: PixelFormat, width: Int, height: Int,
        colorSpace: ColorSpace?, metadata: [String: MetadataValue], isPremultiplied: Bool = false
    ) {
        self.storage = storage
        self.planes = planes
        self.format = format
        self.width = width
        self.height = height
        self.colorSpace = colorSpace
        self.metadata = metadata
        self.isPremultiplied = isPremultiplied
    }

    /// The plane layouts and total byte count of a tightly allocated buffer (64-byte aligned rows).
    static func layout(width: Int, height: Int, format: PixelFormat) -> ([PlaneLayout], Int) {
        var layouts: [PlaneLayout] = []
        var offset = 0
        for p in 0..<format.planeCount {
            let (sx, sy) = format.subsampling(plane: p)
            let pw = (width + sx - 1) / sx
            let ph = (height + sy - 1) / sy
            let bpr = (pw * format.bytesPerPixel(plane: p) + 63) & ~63
            layouts.append(PlaneLayout(offset: offset, bytesPerRow: bpr, width: pw, height: ph))
            offset += bpr * ph
        }
        return (layouts, offset)
    }

    /// The number of bytes a buffer of this size and format allocates.
    public static func byteCount(width: Int, height: Int, format: PixelFormat) -> Int {
        layout(width: width, height: height, format: format).1
    }

    /// The extent of the buffer, `(0, 0, width, height)`.
    public var bounds: Rect { Rect(width: width, height: height) }

    /// A single-plane buffer over read-only memory that `owner` keeps alive (a decoder lending rows of a memory-mapped
    /// file).
    ///
    /// Writing to it copies it first.
    ///
    /// - Precondition: the rows fit in `byteCount` bytes and are aligned for the format's samples.
    package init(
        borrowing bytes: UnsafeRawPointer, byteCount: Int, bytesPerRow: Int, width: Int, height: Int,
        format: PixelFormat, owner: any AnyObject & Sendable
    ) {
        precondition(format.planeCount == 1 && width > 0 && height > 0 && bytesPerRow >= width * format.bytesPerPixel())
        precondition((height - 1) * bytesPerRow + width * format.bytesPerPixel() <= byteCount)
        let sampleBytes = max(1, format.bytesPerPixel() / max(1, format.channelCount))
        precondition(Int(bitPattern: bytes) % sampleBytes == 0 && bytesPerRow % sampleBytes == 0)
        self.init(
            storage: PixelStorage(borrowing: bytes, byteCount: byteCount, owner: owner),
            planes: [PlaneLayout(offset: 0, bytesPerRow: bytesPerRow, width: width, height: height)], format: format,
            width: width, height: height, colorSpace: nil, metadata: [:])
    }

    /// Bytes between the starts of consecutive rows of `plane`.
    public func bytesPerRow(plane: Int = 0) -> Int { planes[plane].bytesPerRow }

    /// Width and height of `plane` in samples (chroma planes of 4:2:0 formats are half size).
    public func planeSize(_ plane: Int) -> (width: Int, height: Int) { (planes[plane].width, planes[plane].height) }

    /// The number of planes.
    public var planeCount: Int { planes.count }

    // MARK: Lending memory

    /// Calls `body` with read access to `plane`.
    public func withUnsafePlane<R, E: Error>(_ plane: Int = 0, _ body: (RawPlane) throws(E) -> R) throws(E) -> R {
        let l = planes[plane]
        return try withExtendedLifetime(storage) { () throws(E) -> R in
            try body(
                RawPlane(
                    baseAddress: UnsafeRawPointer(storage.bytes + l.offset), bytesPerRow: l.bytesPerRow,
                    width: l.width, height: l.height))
        }
    }

    /// Calls `body` with write access to `plane`, copying the pixels first if they are shared.
    public mutating func withUnsafeMutablePlane<R, E: Error>(
        _ plane: Int = 0, _ body: (MutableRawPlane) throws(E) -> R
    ) throws(E) -> R {
        makeUnique()
        let view = unsafeSharedMutablePlane(plane)
        return try withExtendedLifetime(storage) { () throws(E) -> R in try body(view) }
    }

    /// Write access without the copy-on-write check, for engine code that fills disjoint regions of one buffer from
    /// several threads.
    ///
    /// The caller keeps the buffer alive and never writes one pixel twice concurrently.
    package func unsafeSharedMutablePlane(_ plane: Int = 0) -> MutableRawPlane {
        precondition(!storage.isReadOnly, "borrowed read-only pixels cannot be written in place")
        let l = planes[plane]
        return MutableRawPlane(
            baseAddress: storage.bytes + l.offset, bytesPerRow: l.bytesPerRow, width: l.width, height: l.height)
    }

    /// Whether this value is the only owner of its memory (a write would not copy).
    public var isUniquelyReferenced: Bool {
        mutating get { isKnownUniquelyReferenced(&storage) && !storage.isReadOnly }
    }

    /// Copies the pixels of this view into fresh storage unless this value owns its memory alone.
    public mutating func makeUnique() {
        if isKnownUniquelyReferenced(&storage) && !storage.isReadOnly { return }
        self = copy()
    }

    /// A deep copy with its own compact storage (rows re-aligned from the origin of this view).
    public func copy() -> PixelBuffer {
        var out = PixelBuffer(
            width: width, height: height, format: format, colorSpace: colorSpace, metadata: metadata)
        out.isPremultiplied = isPremultiplied
        for p in 0..<planeCount {
            let dst = out.unsafeSharedMutablePlane(p)
            let rowBytes = planes[p].width * format.bytesPerPixel(plane: p)
            withUnsafePlane(p) { src in
                for y in 0..<src.height {
                    dst.row(y).copyMemory(from: src.row(y), byteCount: rowBytes)
                }
            }
        }
        return out
    }

    // MARK: Views

    /// A zero-copy window onto a sub-rectangle.
    ///
    /// Writing to the view copies it first (value semantics); a Bayer view at an odd offset reports the shifted CFA
    /// layout.
    ///
    /// - Throws: ``PixelError/regionOutOfBounds(x:y:width:height:bufferWidth:bufferHeight:)`` when the
    ///   rectangle is not inside the buffer, or when a 4:2:0 view does not start on an even pixel.
    public func view(x: Int, y: Int, width w: Int, height h: Int) throws(PixelError) -> PixelBuffer {
        guard x >= 0, y >= 0, w > 0, h > 0, x + w <= width, y + h <= height else {
            throw .regionOutOfBounds(x: x, y: y, width: w, height: h, bufferWidth: width, bufferHeight: height)
        }
        for p in 0..<planeCount {
            let (sx, sy) = format.subsampling(plane: p)
            guard x % sx == 0, y % sy == 0 else {
                throw .regionOutOfBounds(x: x, y: y, width: w, height: h, bufferWidth: width, bufferHeight: height)
            }
        }
        var newPlanes = planes
        for p in 0..<planeCount {
            let (sx, sy) = format.subsampling(plane: p)
            newPlanes[p].offset += (y / sy) * planes[p].bytesPerRow + (x / sx) * format.bytesPerPixel(plane: p)
            newPlanes[p].width = (w + sx - 1) / sx
            newPlanes[p].height = (h + sy - 1) / sy
        }
        var newFormat = format
        switch format {
        case .bayer14(let pattern): newFormat = .bayer14(pattern.shifted(x: x, y: y))
        case .bayer16(let pattern): newFormat = .bayer16(pattern.shifted(x: x, y: y))
        case .xTrans16(let pattern): newFormat = .xTrans16(pattern.shifted(x: x, y: y))
        default: break
        }
        return PixelBuffer(
            storage: storage, planes: newPlanes, format: newFormat, width: w, height: h, colorSpace: colorSpace,
            metadata: metadata, isPremultiplied: isPremultiplied)
    }

    /// A zero-copy window onto an integral rectangle (see ``view(x:y:width:height:)``).
    public func view(of rect: Rect) throws(PixelError) -> PixelBuffer {
        guard rect.isIntegral, !rect.isEmpty else {
            throw .regionOutOfBounds(
                x: Int(clamping: Int64(rect.minX.isFinite ? rect.minX : 0)), y: 0, width: 0, height: 0,
                bufferWidth: width, bufferHeight: height)
        }
        return try view(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width), height: Int(rect.height))
    }

    /// Whether two buffers share the same memory.
    public func sharesStorage(with other: PixelBuffer) -> Bool { storage === other.storage }
}

/// Read access to one plane of a ``PixelBuffer``.
public struct RawPlane: @unchecked Sendable {
    // @unchecked: a plain pointer wrapper handed to tile workers that read shared rows.
    /// The first byte of row 0.
    public let baseAddress: UnsafeRawPointer
    /// Bytes between rows.
    public let bytesPerRow: Int
    /// Samples per row.
    public let width: Int
    /// Rows.
    public let height: Int

    /// The first byte of row `y`.
    @inlinable
    public func row(_ y: Int) -> UnsafeRawPointer { baseAddress + y * bytesPerRow }

    /// Row `y` as typed components.
    @inlinable
    public func row<T>(_ y: Int, as type: T.Type) -> UnsafePointer<T> {
        (baseAddress + y * bytesPerRow).assumingMemoryBound(to: T.self)
    }
}

/// Write access to one plane of a ``PixelBuffer``.
public struct MutableRawPlane: @unchecked Sendable {
    // @unchecked: a plain pointer wrapper handed to tile workers that write disjoint rows.
    /// The first byte of row 0.
    public let baseAddress: UnsafeMutableRawPointer
    /// Bytes between rows.
    public let bytesPerRow: Int
    /// Samples per row.
    public let width: Int
    /// Rows.
    public let height: Int

    /// Describes `height` rows of `width` pixels starting at `baseAddress`, `bytesPerRow` apart (memory the
    /// caller owns and keeps alive while the plane is used).
    public init(baseAddress: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int) {
        self.baseAddress = baseAddress
        self.bytesPerRow = bytesPerRow
        self.width = width
        self.height = height
    }

    /// The first byte of row `y`.
    @inlinable
    public func row(_ y: Int) -> UnsafeMutableRawPointer { baseAddress + y * bytesPerRow }

    /// Row `y` as typed components.
    @inlinable
    public func row<T>(_ y: Int, as type: T.Type) -> UnsafeMutablePointer<T> {
        (baseAddress + y * bytesPerRow).assumingMemoryBound(to: T.self)
    }
}
