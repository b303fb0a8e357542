import LuxPixels
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    @Test("reclaim(beyond:) frees idle buffers past the count and leaves buffers in use alone")
    func reclaimBeyondACount() throws {
        let pool = BufferPool(capacityPerKey: 6)
        try pool.preallocate(format: .rgba8, width: 16, height: 16, count: 5)
        let held = try pool.buffer(format: .rgba8, width: 16, height: 16)
        pool.reclaim(beyond: 2, format: .rgba8, width: 16, height: 16)
        var s = pool.statistics(format: .rgba8, width: 16, height: 16)
        #expect(s.allocated == 2 && s.outstanding == 1 && s.idle == 1)
        pool.reclaim(beyond: 0, format: .rgba8, width: 16, height: 16)
        s = pool.statistics(format: .rgba8, width: 16, height: 16)
        #expect(s.allocated == 1 && s.idle == 0)
        #expect(held.width == 16)
    }

    #if os(Linux)
        /// Resident pages under `buffer`'s first plane, as the kernel reports them (mincore).
        static func residentPages(_ buffer: PixelBuffer) -> Int {
            buffer.withUnsafePlane { plane in
                let page = Int(sysconf(Int32(_SC_PAGESIZE)))
                let start = Int(bitPattern: plane.baseAddress) & ~(page - 1)
                let end = Int(bitPattern: plane.baseAddress) + plane.bytesPerRow * plane.height
                var vector = [UInt8](repeating: 0, count: (end - start + page - 1) / page)
                _ = mincore(UnsafeMutableRawPointer(bitPattern: start), end - start, &vector)
                return vector.reduce(0) { $0 + Int($1 & 1) }
            }
        }

        @Test("releaseIdleMemory() drops an idle large buffer's pages (mincore) and keeps the buffer for reuse")
        func releasingIdleMemoryKeepsTheBuffer() throws {
            let pool = BufferPool(capacityPerKey: 2)
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            var buffer = try pool.buffer(format: .bayer14(.rggb), width: 4032, height: 3024)
            buffer.withUnsafeMutablePlane { plane in
                for y in 0..<plane.height { plane.row(y).initializeMemory(as: UInt8.self, repeating: 7, count: 8064) }
            }
            #expect(Self.residentPages(buffer) >= 4032 * 3024 * 2 / page)
            // A buffer in use keeps its pages.
            #expect(pool.releaseIdleMemory() == 0)
            #expect(Self.residentPages(buffer) >= 4032 * 3024 * 2 / page)
            buffer = PixelBuffer(width: 1, height: 1, format: .rgba8)
            #expect(pool.releaseIdleMemory() == 4032 * 3024 * 2)
            let again = try pool.buffer(format: .bayer14(.rggb), width: 4032, height: 3024)
            let s = pool.statistics(format: .bayer14(.rggb), width: 4032, height: 3024)
            #expect(s.allocations == 1 && s.reuses == 1 && s.allocated == 1)
            #expect(Self.residentPages(again) == 0)
            let row = again.withUnsafePlane { plane in
                Array(UnsafeBufferPointer(start: plane.row(2000).assumingMemoryBound(to: UInt16.self), count: 4032))
            }
            #expect(row.allSatisfy { $0 == 0 })
        }

        @Test("A large prepared buffer reads as zeros and has no resident page until written (mincore)")
        func largePreparedBuffersAreNotResident() throws {
            let pool = BufferPool(capacityPerKey: 2)
            // 24 MB, a 12 MP Bayer frame: above the 4 MiB page-map threshold.
            try pool.preallocate(format: .bayer14(.rggb), width: 4032, height: 3024, count: 1)
            var buffer = try pool.buffer(format: .bayer14(.rggb), width: 4032, height: 3024)
            func residentPages() -> Int { Self.residentPages(buffer) }
            #expect(residentPages() == 0)
            let row = buffer.withUnsafePlane { plane in
                Array(UnsafeBufferPointer(start: plane.row(1500).assumingMemoryBound(to: UInt16.self), count: 4032))
            }
            #expect(row.allSatisfy { $0 == 0 })
            buffer.withUnsafeMutablePlane { plane in
                for y in 0..<plane.height { plane.row(y).initializeMemory(as: UInt8.self, repeating: 1, count: 8064) }
            }
            #expect(residentPages() >= 4032 * 3024 * 2 / Int(sysconf(Int32(_SC_PAGESIZE))))
        }

        @Test("mapsPages: a buffer below the page-map threshold is mapped: zeros, no resident page until written")
        func mappedBufferBelowTheThreshold() {
            // 256 rows of 4032 RGBA8 pixels: 4 128 768 bytes, just under the 4 MiB threshold.
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let heap = PixelBuffer(width: 4032, height: 256, format: .rgba8)
            #expect(Self.residentPages(heap) >= 4032 * 4 * 256 / page)  // zeroed in one pass when made
            var mapped = PixelBuffer(width: 4032, height: 256, format: .rgba8, colorSpace: nil, mapsPages: true)
            #expect(Self.residentPages(mapped) == 0)
            let row = mapped.withUnsafePlane { plane in
                Array(UnsafeBufferPointer(start: plane.row(200).assumingMemoryBound(to: UInt8.self), count: 4032 * 4))
            }
            #expect(row.allSatisfy { $0 == 0 })
            mapped.withUnsafeMutablePlane { plane in
                for y in 0..<plane.height {
                    plane.row(y).initializeMemory(as: UInt8.self, repeating: 9, count: 4032 * 4)
                }
            }
            #expect(Self.residentPages(mapped) >= 4032 * 4 * 256 / page)
        }
    #endif

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
