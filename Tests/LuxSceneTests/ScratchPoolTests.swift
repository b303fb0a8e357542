import Testing

@testable import LuxScene

/// The scene renderer's scratch pool: a block handed back serves the next request of about its size, and idle memory
/// stays within the pool's limit.
@Suite struct ScratchPoolTests {
    @Test func aReturnedBlockServesTheNextRequestOfAboutItsSize() {
        let pool = ScratchPool(idleLimit: 1 << 20)
        let (first, capacity) = pool.take(10_000)
        #expect(capacity == 10_000)
        first[9_999] = 7
        pool.give(first, capacity: capacity)
        // At most twice the request: a block of 10 000 serves 6 000 but not 4 000.
        let (again, c) = pool.take(6_000)
        #expect(again == first && c == 10_000)
        pool.give(again, capacity: c)
        let (other, small) = pool.take(4_000)
        #expect(other != first && small == 4_000)
        other.deallocate()
    }

    @Test func idleBlocksBeyondTheLimitAreFreed() {
        let pool = ScratchPool(idleLimit: 64 << 10)
        let a = pool.take(10_000)
        let b = pool.take(10_000)
        pool.give(a.pointer, capacity: a.capacity)
        #expect(pool.idleBytes == 40_000)
        // A second idle block would make 80 000 bytes, over the 65 536-byte limit: it is freed instead.
        pool.give(b.pointer, capacity: b.capacity)
        #expect(pool.idleBytes == 40_000)
        let first = pool.take(10_000)
        #expect(first.pointer == a.pointer && pool.idleBytes == 0)
        first.pointer.deallocate()
    }
}
