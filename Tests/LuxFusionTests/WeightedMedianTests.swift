import LuxTestSupport
import Testing

@testable import LuxFusion

/// The robust fit's weighted median (a selection) against hand-worked cases and against its definition by sorting.
@Suite struct WeightedMedianTests {
    /// The definition: (value, weight, index) in order of value, equal values in index order, and the first value at
    /// which the running sum of the weights reaches half of their total (summed in index order).
    static func definition(_ values: [Double], _ weights: [Double]) -> Double {
        let half = weights.reduce(0, +) / 2
        let order = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
        var acc = 0.0
        for i in order {
            acc += weights[i]
            if acc >= half { return values[i] }
        }
        return values[order.last!]
    }

    /// A uniform value in [0, 1) with 53 bits.
    static func unit(_ random: inout SplitMix) -> Double { Double(random.next() >> 11) / Double(1 << 53) }

    @Test("hand-worked medians, the running sum reaching half exactly included")
    func handWorked() {
        // 1 + 1 reaches half of 4 at the second 1 (the lower value wins a tie at exactly half, not their mean).
        #expect(GlobalMotion.weightedMedian([3, 1, 1, 2], [1, 1, 1, 1]) == 1)
        #expect(GlobalMotion.weightedMedian([2, 1], [1, 1]) == 1)
        // A heavy value outweighs the others.
        #expect(GlobalMotion.weightedMedian([5, 1, 2], [10, 1, 1]) == 5)
        // 0.5 + 1 of 5 < 2.5; then 2 reaches 3.5.
        #expect(GlobalMotion.weightedMedian([-1, 4, 0.5, -3], [1, 2, 1.5, 0.5]) == 0.5)
        #expect(GlobalMotion.weightedMedian([7], [0.25]) == 7)
    }

    @Test("the selection gives the sorted definition's median, with ties and equal values")
    func matchesDefinition() {
        var random = SplitMix(seed: 47)
        var selected = 0
        var cases = 0
        for count in [1, 2, 3, 5, 8, 31, 100, 999, 4096, 5400] {
            for levels in [0, 3, 40] {
                for _ in 0..<4 {
                    // Values on a few levels (many equal values) or continuous; weights like confidences + 1e-3.
                    let values = (0..<count).map { _ -> Double in
                        let u = Self.unit(&random) * 6 - 3
                        return levels == 0 ? u : (u * Double(levels)).rounded() / Double(levels)
                    }
                    let weights = (0..<count).map { _ in Self.unit(&random) + 1e-3 }
                    let half = weights.reduce(0, +) / 2
                    #expect(GlobalMotion.weightedMedian(values, weights) == Self.definition(values, weights))
                    if GlobalMotion.selectedWeightedMedian(values, weights, half: half) != nil { selected += 1 }
                    cases += 1
                }
            }
        }
        // The selection itself decided almost every case (the sort only near exact ties of the sums).
        #expect(selected > cases * 9 / 10)
    }

    @Test("equal weights: the running sum lands exactly on half, and the sort decides as defined")
    func exactHalf() {
        var random = SplitMix(seed: 3)
        for count in [2, 10, 64, 1000] {
            let values = (0..<count).map { _ in (Self.unit(&random) * 8).rounded() }
            let weights = [Double](repeating: 1, count: count)
            #expect(GlobalMotion.weightedMedian(values, weights) == Self.definition(values, weights))
        }
    }

    @Test("NaN values and weights that are not positive take the sorted definition")
    func unusualInputs() {
        let values: [Double] = [2, .nan, 1, 3]
        #expect(GlobalMotion.selectedWeightedMedian(values, [1, 1, 1, 1], half: 2) == nil)
        let weights: [Double] = [1, 0, 2, 1]
        #expect(GlobalMotion.selectedWeightedMedian([2, 5, 1, 3], weights, half: 2) == nil)
        #expect(GlobalMotion.weightedMedian([2, 5, 1, 3], weights) == Self.definition([2, 5, 1, 3], weights))
    }
}
