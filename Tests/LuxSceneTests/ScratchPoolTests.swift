import Testing

@testable import LuxScene

/// The scene renderer's scratch pool: a block handed back serves the next request of about its size, idle memory
/// stays within the pool's limit, and small blocks are not kept.
@Suite struct ScratchPoolTests {
    @Test func aReturnedBlockServesTheNextRequestOfAboutItsSize() {
        let pool = ScratchPool(idleLimit: 1 << 20)
        let (first, capacity) = pool.take(70_000)
        #expect(capacity == 70_000)
        first[69_999] = 7
        pool.give(first, capacity: capacity)
        // At most twice the request: a block of 70 000 serves 36 000 but not 34 000.
        let (other, c) = pool.take(34_000)
        #expect(other != first && c == 34_000)
        let (again, d) = pool.take(36_000)
        #expect(again == first && d == 70_000)
        pool.give(again, capacity: d)
        pool.give(other, capacity: c)
        #expect(pool.idleBytes == 4 * (70_000 + 34_000))
    }

    @Test func idleBlocksBeyondTheLimitAreFreed() {
        let pool = ScratchPool(idleLimit: 300_000)
        let a = pool.take(40_000)
        let b = pool.take(40_000)
        pool.give(a.pointer, capacity: a.capacity)
        #expect(pool.idleBytes == 160_000)
        // A second idle block would make 320 000 bytes, over the limit: it is freed instead.
        pool.give(b.pointer, capacity: b.capacity)
        #expect(pool.idleBytes == 160_000)
        let first = pool.take(40_000)
        #expect(first.pointer == a.pointer && pool.idleBytes == 0)
        first.pointer.deallocate()
    }

    @Test func smallBlocksAreNotKept() {
        let pool = ScratchPool(idleLimit: 1 << 20)
        let small = pool.take(ScratchPool.minimumCount - 1)
        pool.give(small.pointer, capacity: small.capacity)
        #expect(pool.idleBytes == 0)
    }
}
