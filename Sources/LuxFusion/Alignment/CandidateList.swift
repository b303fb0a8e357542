/// Up to four candidate displacements without allocating (duplicates are skipped).
struct CandidateList {
    private var storage = SIMD8<Int32>()
    private(set) var count = 0

    @inline(__always)
    mutating func append(_ c: SIMD2<Int32>) {
        for n in 0..<count where self[n] == c { return }
        guard count < 4 else { return }
        storage[2 * count] = c.x
        storage[2 * count + 1] = c.y
        count += 1
    }

    subscript(_ n: Int) -> SIMD2<Int32> { SIMD2(storage[2 * n], storage[2 * n + 1]) }
}
