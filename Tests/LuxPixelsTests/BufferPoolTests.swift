import LuxPixels
import Testing

@Suite struct BufferPoolTests {
    @Test func exhaustionThrowsAndReturnedBuffersAreReused() throws {
        let pool = BufferPool(capacityPerKey: 2)
        var a: PixelBuffer? = try pool.buffer(format: .bayer14(.rggb), width: 64, height: 48)
        let b = try pool.buffer(format: .bayer14(.rggb), width: 64, height: 48)
        #expect(throws: PixelError.poolExhausted(format: .bayer14(.rggb), width: 64, height: 48, capacity: 2)) {
            try pool.buffer(format: .bayer14(.rggb), width: 64, height: 48)
        }
        // Another key has its own cap.
        _ = try pool.buffer(format: .rgba8, width: 64, height: 48)
        #expect(pool.statistics(format: .bayer14(.rggb), width: 64, height: 48).outstanding == 2)
        a = nil
        #expect(a == nil)
        #expect(pool.statistics(format: .bayer14(.rggb), width: 64, height: 48).idle == 1)
        _ = try pool.buffer(format: .bayer14(.rggb), width: 64, height: 48)
        let s = pool.statistics(format: .bayer14(.rggb), width: 64, height: 48)
        #expect(s.reuses == 1 && s.allocations == 2 && s.peakOutstanding == 2)
        withExtendedLifetime(b) {}
    }

    @Test func viewsKeepTheirBufferOut() throws {
        let pool = BufferPool(capacityPerKey: 1)
        var view: PixelBuffer?
        do {
            let whole = try pool.buffer(format: .rgba8, width: 16, height: 16)
            view = try whole.view(x: 0, y: 0, width: 4, height: 4)
        }
        #expect(pool.outstandingCount == 1)
        view = nil
        #expect(view == nil && pool.outstandingCount == 0)
    }

    @Test func preallocationServesRequestsWithoutAllocating() throws {
        let pool = BufferPool(capacityPerKey: 4)
        try pool.preallocate(format: .rgbaHalf, width: 32, height: 32, count: 3)
        var held: [PixelBuffer] = []
        for _ in 0..<3 { held.append(try pool.buffer(format: .rgbaHalf, width: 32, height: 32)) }
        let s = pool.statistics(format: .rgbaHalf, width: 32, height: 32)
        #expect(s.reuses == 3 && s.allocations == 3 && s.allocated == 3)
        #expect(throws: PixelError.self) { try pool.preallocate(format: .rgbaHalf, width: 32, height: 32, count: 5) }
        held.removeAll()
        pool.reclaim()
        #expect(pool.allocatedBytes == 0)
    }

    @Test func concurrentUseNeverExceedsTheCap() async throws {
        let pool = BufferPool(capacityPerKey: 3)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    for _ in 0..<50 {
                        if let b = try? pool.buffer(format: .gray8, width: 8, height: 8) { withExtendedLifetime(b) {} }
                    }
                }
            }
        }
        let s = pool.statistics(format: .gray8, width: 8, height: 8)
        #expect(s.outstanding == 0 && s.peakOutstanding <= 3 && s.allocated <= 3)
    }
}
