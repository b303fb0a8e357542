/// Up to four candidate displacements without allocating (duplicates are skipped).
struct CandidateList {
    private var storage = SIMD8<Int32>()
    private(set) var count = 0

    mutating func append(_ c: SIMD2<Int32>) {
        for n in 0..<count where self[n] == c { return }
        guard count < 4 else { return }
        storage[2 * count] = c.x
        storage[2 * count + 1] = c.y
        count += 1
    }

    subscript(_ n: Int) -> SIMD2<Int32> { SIMD2(storage[2 * n], storage[2 * n + 1]) }
}

/// The (L1, L2) costs of up to four candidates, where the search computed both at once.
struct CandidateCosts {
    private var l1 = SIMD4<Float>()
    private var l2 = SIMD4<Float>()
    private var known: UInt8 = 0

    mutating func set(_ n: Int, _ costs: SIMD2<Float>) {
        l1[n] = costs.x
        l2[n] = costs.y
        known |= 1 << n
    }

    /// The costs of offset `o` if it is one of `candidates` with known costs.
    func costs(of o: SIMD2<Int32>, in candidates: CandidateList) -> SIMD2<Float>? {
        guard known != 0 else { return nil }
        for n in 0..<candidates.count where known & (1 << n) != 0 && candidates[n] == o {
            return SIMD2(l1[n], l2[n])
        }
        return nil
    }
}
