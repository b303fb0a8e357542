public import LuxColor
import Synchronization

/// Fixed-size pools of pixel buffers, keyed by format and size, with a hard cap per key.
///
/// A buffer handed out by ``buffer(format:width:height:colorSpace:)`` returns to its pool by itself when
/// the last copy or view of it goes away (as `CVPixelBufferPool` buffers do), and is reused by the next
/// request of the same key. When every buffer of a key is in use, a request throws
/// ``PixelError/poolExhausted(format:width:height:capacity:)`` instead of allocating more: capture code
/// relies on that back-pressure.
///
/// ```swift
/// let pool = BufferPool(capacityPerKey: 6)
/// try pool.preallocate(format: .bayer14(.rggb), width: 4032, height: 3024, count: 6)
/// let frame = try pool.buffer(format: .bayer14(.rggb), width: 4032, height: 3024)
/// ```
public final class BufferPool: Sendable {
    /// What a pool hands out: one format at one size.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        public var format: PixelFormat
        public var width: Int
        public var height: Int

        /// Creates a key.
        public init(format: PixelFormat, width: Int, height: Int) {
            self.format = format
            self.width = width
            self.height = height
        }

        public var description: String { "\(format) \(width)×\(height)" }
    }

    /// Counters for one key.
    public struct Statistics: Hashable, Sendable {
        /// Buffers whose memory currently exists (in use plus idle).
        public var allocated: Int
        /// Buffers in use.
        public var outstanding: Int
        /// Buffers waiting for reuse.
        public var idle: Int
        /// The most buffers ever in use at once.
        public var peakOutstanding: Int
        /// Requests served from idle memory.
        public var reuses: Int
        /// Requests that had to allocate.
        public var allocations: Int
        /// The cap.
        public var capacity: Int
    }

    /// The cap applied to keys without their own.
    public let defaultCapacity: Int
    private let recyclers: Mutex<[Key: PoolRecycler]>

    /// Creates an empty pool set.
    ///
    /// - Parameter capacityPerKey: The most buffers of one key that may be in use at once.
    public init(capacityPerKey: Int) {
        precondition(capacityPerKey > 0, "a pool needs a positive capacity")
        defaultCapacity = capacityPerKey
        recyclers = Mutex([:])
    }

    private func recycler(for key: Key) throws(PixelError) -> PoolRecycler {
        guard key.width > 0, key.height > 0 else {
            throw .invalidDimensions(width: key.width, height: key.height, reason: "pool buffers need a positive size")
        }
        return recyclers.withLock { table in
            if let r = table[key] { return r }
            let (_, bytes) = PixelBuffer.layout(width: key.width, height: key.height, format: key.format)
            let r = PoolRecycler(key: key, byteCount: bytes, capacity: defaultCapacity)
            table[key] = r
            return r
        }
    }

    /// Sets the cap for one key (buffers already in use stay valid).
    public func setCapacity(_ capacity: Int, format: PixelFormat, width: Int, height: Int) throws(PixelError) {
        precondition(capacity > 0, "a pool needs a positive capacity")
        try recycler(for: Key(format: format, width: width, height: height)).setCapacity(capacity)
    }

    /// Raises the cap of one key to at least `capacity`; a larger cap is kept.
    ///
    /// Use this when several clients share a key and each needs room for its own buffers in flight: unlike
    /// ``setCapacity(_:format:width:height:)`` it never takes room away from another client.
    public func raiseCapacity(toAtLeast capacity: Int, format: PixelFormat, width: Int, height: Int) throws(PixelError)
    {
        precondition(capacity > 0, "a pool needs a positive capacity")
        try recycler(for: Key(format: format, width: width, height: height)).raiseCapacity(capacity)
    }

    /// A zeroed-or-reused buffer of the key (contents of reused buffers are unspecified).
    ///
    /// - Throws: ``PixelError/poolExhausted(format:width:height:capacity:)`` when the cap is reached.
    public func buffer(
        format: PixelFormat, width: Int, height: Int, colorSpace: ColorSpace? = nil
    ) throws(PixelError) -> PixelBuffer {
        let key = Key(format: format, width: width, height: height)
        let r = try recycler(for: key)
        let memory = try r.take()
        let (layouts, _) = PixelBuffer.layout(width: width, height: height, format: format)
        let storage = PixelStorage(pooled: memory, byteCount: r.byteCount, recycler: r)
        return PixelBuffer(
            storage: storage, planes: layouts, format: format, width: width, height: height, colorSpace: colorSpace,
            metadata: [:])
    }

    /// Allocates idle buffers ahead of use so that the first `count` requests do not allocate.
    ///
    /// - Throws: ``PixelError/poolExhausted(format:width:height:capacity:)`` if `count` exceeds the cap.
    public func preallocate(format: PixelFormat, width: Int, height: Int, count: Int) throws(PixelError) {
        try recycler(for: Key(format: format, width: width, height: height)).preallocate(count)
    }

    /// Frees the idle memory of every key not in `keep`; buffers in use are freed when they come back.
    public func reclaim(keeping keep: Set<Key> = []) {
        let all = recyclers.withLock { Array($0) }
        for (key, r) in all where !keep.contains(key) { r.retire() }
    }

    /// Frees the idle memory of one key beyond `count` buffers in all (in use plus idle); buffers in use stay valid.
    public func reclaim(beyond count: Int, format: PixelFormat, width: Int, height: Int) {
        guard let r = recyclers.withLock({ $0[Key(format: format, width: width, height: height)] }) else { return }
        r.trim(to: count)
    }

    /// Returns the memory of idle large buffers (page maps, 4 MiB and more) to the system, keeping the buffers.
    ///
    /// The counts do not change, the next requests reuse the buffers without allocating, and their pages become
    /// resident (zeroed) again only as they are written. For a pause in which the idle buffers are not needed,
    /// such as a Live Photo's movie being encoded after its still was delivered.
    ///
    /// - Returns: The bytes of the buffers whose memory was returned.
    @discardableResult
    public func releaseIdleMemory() -> Int {
        recyclers.withLock { Array($0.values) }.reduce(0) { $0 + $1.releaseIdlePages() }
    }

    /// The keys the pool has seen.
    public var keys: [Key] { recyclers.withLock { Array($0.keys) } }

    /// Counters for one key (zeros for a key never used).
    public func statistics(format: PixelFormat, width: Int, height: Int) -> Statistics {
        let key = Key(format: format, width: width, height: height)
        guard let r = recyclers.withLock({ $0[key] }) else {
            return Statistics(
                allocated: 0, outstanding: 0, idle: 0, peakOutstanding: 0, reuses: 0, allocations: 0,
                capacity: defaultCapacity)
        }
        return r.statistics
    }

    /// Buffers in use across all keys.
    public var outstandingCount: Int {
        recyclers.withLock { Array($0.values) }.reduce(0) { $0 + $1.statistics.outstanding }
    }

    /// Bytes allocated across all keys (in use plus idle).
    public var allocatedBytes: Int {
        recyclers.withLock { Array($0.values) }.reduce(0) { $0 + $1.statistics.allocated * $1.byteCount }
    }

    deinit {
        for r in recyclers.withLock({ Array($0.values) }) { r.retire() }
    }
}

/// The free list of one pool key; pooled storage returns its memory here.
final class PoolRecycler: Sendable {
    let key: BufferPool.Key
    let byteCount: Int

    private struct State {
        var free: [UInt] = []  // addresses of idle allocations
        var allocated = 0
        var outstanding = 0
        var peak = 0
        var reuses = 0
        var allocations = 0
        var capacity: Int
        var retired = false
        /// The map behind each idle or outstanding mapped allocation, by the allocation's address.
        var mappings: [UInt: (base: UInt, length: Int)] = [:]
    }

    private let state: Mutex<State>

    init(key: BufferPool.Key, byteCount: Int, capacity: Int) {
        self.key = key
        self.byteCount = byteCount
        state = Mutex(State(capacity: capacity))
    }

    func setCapacity(_ capacity: Int) {
        state.withLock { $0.capacity = capacity }
    }

    func raiseCapacity(_ capacity: Int) {
        state.withLock { $0.capacity = max($0.capacity, capacity) }
    }

    func take() throws(PixelError) -> UnsafeMutableRawPointer {
        let result: Result<UInt?, PixelError> = state.withLock { s in
            guard s.outstanding < s.capacity else {
                return .failure(
                    .poolExhausted(format: key.format, width: key.width, height: key.height, capacity: s.capacity))
            }
            s.retired = false
            s.outstanding += 1
            s.peak = max(s.peak, s.outstanding)
            if let address = s.free.popLast() {
                s.reuses += 1
                return .success(address)
            }
            s.allocated += 1
            s.allocations += 1
            return .success(nil)
        }
        switch result {
        case .failure(let error): throw error
        case .success(let address?): return UnsafeMutableRawPointer(bitPattern: address)!
        case .success(nil): return allocateZeroed()
        }
    }

    /// New zeroed memory for one buffer: a page map (``PageMapping``) for a large buffer, whose pages become
    /// resident only once written, so a prepared buffer a capture never uses costs address space, not memory.
    private func allocateZeroed() -> UnsafeMutableRawPointer {
        if byteCount >= PageMapping.threshold, let m = PageMapping.map(byteCount) {
            state.withLock { $0.mappings[UInt(bitPattern: m.bytes)] = (UInt(bitPattern: m.base), m.length) }
            return m.bytes
        }
        let p = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
        return p
    }

    /// Returns one allocation's memory to the system.
    private func release(_ address: UInt) {
        if let m = state.withLock({ $0.mappings.removeValue(forKey: address) }) {
            PageMapping.unmap(base: UnsafeMutableRawPointer(bitPattern: m.base)!, length: m.length)
        } else {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    }

    func preallocate(_ count: Int) throws(PixelError) {
        let needed: Int = try state.withLock { (s) throws(PixelError) -> Int in
            guard count <= s.capacity else {
                throw .poolExhausted(format: key.format, width: key.width, height: key.height, capacity: s.capacity)
            }
            s.retired = false
            return max(0, count - (s.free.count + s.outstanding))
        }
        var fresh: [UInt] = []
        for _ in 0..<needed { fresh.append(UInt(bitPattern: allocateZeroed())) }
        let copy = fresh
        state.withLock { s in
            s.free.append(contentsOf: copy)
            s.allocated += copy.count
            s.allocations += copy.count
        }
    }

    func recycle(_ pointer: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: pointer)
        let keep = state.withLock { s in
            s.outstanding -= 1
            if s.retired || s.free.count + s.outstanding >= s.capacity {
                s.allocated -= 1
                return false
            }
            s.free.append(address)
            return true
        }
        if !keep { release(address) }
    }

    /// Frees idle memory beyond `count` buffers in all (in use plus idle).
    func trim(to count: Int) {
        let idle = state.withLock { s in
            var dropped: [UInt] = []
            while s.free.count + s.outstanding > count, let address = s.free.popLast() { dropped.append(address) }
            s.allocated -= dropped.count
            return dropped
        }
        for address in idle { release(address) }
    }

    /// Returns the pages of idle mapped allocations to the system, keeping the allocations; returns their bytes.
    ///
    /// The lock is held throughout, so no buffer is handed out while its pages are being dropped.
    func releaseIdlePages() -> Int {
        state.withLock { s in
            var released = 0
            for address in s.free where s.mappings[address] != nil {
                PageMapping.discard(UnsafeMutableRawPointer(bitPattern: address)!, count: byteCount)
                released += byteCount
            }
            return released
        }
    }

    /// Frees idle memory; buffers in use are freed (not kept) when they return.
    func retire() {
        let idle = state.withLock { s in
            s.retired = true
            let f = s.free
            s.free = []
            s.allocated -= f.count
            return f
        }
        for address in idle { release(address) }
    }

    var statistics: BufferPool.Statistics {
        state.withLock { s in
            BufferPool.Statistics(
                allocated: s.allocated, outstanding: s.outstanding, idle: s.free.count, peakOutstanding: s.peak,
                reuses: s.reuses, allocations: s.allocations, capacity: s.capacity)
        }
    }
}
