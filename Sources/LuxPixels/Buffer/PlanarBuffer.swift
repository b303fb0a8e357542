/// A planar image in memory: ``planeCount`` planes of ``width`` × ``height`` samples, for kernels that work on one
/// channel at a time outside the render engine.
///
/// Every row starts on a 64-byte boundary (for samples whose size divides 64): rows hold ``rowStride`` samples, of
/// which the first ``width`` are the image (the rest are padding, zero unless a kernel writes them). Row `y` of plane
/// `p` starts `(p × height + y) × rowStride` samples into the allocation, so a plane's rows follow each other and the
/// planes follow each other.
///
/// The samples have reference semantics, like those of an `UnsafeMutableBufferPointer`: copies of a buffer share its
/// memory, which lives until the last copy goes away, and kernels read and write it through the pointers that
/// ``row(_:_:)`` and ``plane(_:)`` return — on several threads at once, as long as they write disjoint rows. The type
/// is `@unchecked Sendable` for that reason.
///
/// `Float` buffers are the working memory of the scene renderer and of the fusion kernels; `Float16` buffers (see
/// ``store(plane:row:x:from:count:)``) halve the memory of data kept between frames.
///
/// ```swift
/// let grey = PlanarBuffer<Float>(width: 640, height: 480)
/// let row = grey.row(0, 10)
/// for x in 0..<grey.width { row[x] = 0.5 }
/// ```
public struct PlanarBuffer<Sample: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: the memory is a fixed allocation that never moves while a copy is alive; concurrent writers use
    // disjoint rows (see the type's documentation).

    /// Samples per row of the image.
    public let width: Int
    /// Rows per plane.
    public let height: Int
    /// The number of planes.
    public let planeCount: Int
    /// Samples between the starts of consecutive rows: ``width`` rounded up to a whole number of 64-byte lines.
    public let rowStride: Int
    /// The first sample of plane 0.
    @usableFromInline let base: UnsafeMutablePointer<Sample>
    /// The allocation (shared by copies; handed on by `init(width:height:planes:zeroed:recycling:)`).
    let storage: PlanarStorage

    /// Creates a buffer whose samples are all zero bits (0 for `Float` and `Float16`).
    ///
    /// - Parameters:
    ///   - width: Samples per row (positive).
    ///   - height: Rows per plane (positive).
    ///   - planes: The number of planes (positive).
    /// - Complexity: O(`width` × `height` × `planes`).
    public init(width: Int, height: Int, planes: Int = 1) {
        self.init(width: width, height: height, planes: planes, zeroed: true, spare: false, recycling: nil)
    }

    /// Creates a buffer whose samples are zero, or undefined until written when `zeroed` is false (for buffers whose
    /// every row is about to be stored), in memory that a later buffer can reuse.
    ///
    /// With `recycling`, a buffer no copy of which is used any more, its memory is reused when it is large enough
    /// (and not more than twice the size): a fresh allocation of tens of megabytes costs a page fault on first write
    /// every 4 KiB (every 2 MiB where the system gives its memory maps huge pages) and the kernel's clearing. A fresh
    /// allocation keeps 3 % to spare, so that the next buffer of about the same size (a view a few pixels larger)
    /// fits.
    package init(width: Int, height: Int, planes: Int, zeroed: Bool, recycling: PlanarBuffer? = nil) {
        self.init(width: width, height: height, planes: planes, zeroed: zeroed, spare: true, recycling: recycling)
    }

    private init(width: Int, height: Int, planes: Int, zeroed: Bool, spare: Bool, recycling: PlanarBuffer?) {
        precondition(width > 0 && height > 0 && planes > 0, "a planar buffer needs a positive size")
        self.width = width
        self.height = height
        self.planeCount = planes
        // Whole 64-byte lines per row when a sample divides one (every numeric type does), else unpadded rows.
        let size = MemoryLayout<Sample>.stride
        let line = 64 % size == 0 ? 64 / size : 1
        rowStride = (width + line - 1) / line * line
        let count = rowStride * height * planes
        let bytes = count * MemoryLayout<Sample>.stride
        // A new map is zero already; recycled memory and heap blocks are cleared when asked.
        let isZero: Bool
        if let old = recycling?.storage, old.byteCount >= bytes, old.byteCount <= 2 * bytes {
            storage = old
            isZero = false
        } else {
            storage = PlanarStorage(byteCount: spare ? bytes + bytes / 32 : bytes)
            isZero = storage.allocation.isMapped
        }
        if zeroed, !isZero { storage.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: bytes) }
        base = storage.bytes.bindMemory(to: Sample.self, capacity: count)
    }

    /// The first sample of plane `p` (its rows follow each other ``rowStride`` samples apart).
    @inlinable @inline(__always)
    public func plane(_ p: Int) -> UnsafeMutablePointer<Sample> { base + p * rowStride * height }

    /// The first sample of row `y` of plane `p`.
    @inlinable @inline(__always)
    public func row(_ p: Int, _ y: Int) -> UnsafeMutablePointer<Sample> { base + (p * height + y) * rowStride }

    /// Bytes of sample memory the buffer uses (padding included).
    public var byteCount: Int { rowStride * height * planeCount * MemoryLayout<Sample>.stride }
}
