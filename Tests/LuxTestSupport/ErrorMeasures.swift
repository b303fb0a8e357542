import Foundation

/// The peak signal-to-noise ratio in dB of a mean squared error, for signals whose full scale is `peak`.
///
/// No error gives +∞.
public func psnr(meanSquaredError: Double, peak: Double = 1) -> Double {
    meanSquaredError == 0 ? .infinity : 10 * log10(peak * peak / meanSquaredError)
}

/// The PSNR in dB of `values` against `reference` (full scale `peak`) over the indices `included` selects.
public func psnr<Sample: BinaryFloatingPoint>(
    _ values: [Sample], _ reference: [Sample], peak: Double = 1, where included: (Int) -> Bool = { _ in true }
) -> Double {
    psnr(count: min(values.count, reference.count), peak: peak, included) { Double(values[$0] - reference[$0]) }
}

/// The PSNR in dB of integer `values` against `reference` (full scale `peak`) over the indices `included` selects.
public func psnr<Sample: BinaryInteger>(
    _ values: [Sample], _ reference: [Sample], peak: Double, where included: (Int) -> Bool = { _ in true }
) -> Double {
    psnr(count: min(values.count, reference.count), peak: peak, included) { Double(values[$0]) - Double(reference[$0]) }
}

/// ``psnr(_:_:peak:where:)`` for 16-bit samples, through buffer pointers: tests run in debug builds, where the
/// generic version's per-sample calls take about a second per million samples.
public func psnr(
    _ values: [UInt16], _ reference: [UInt16], peak: Double, where included: (Int) -> Bool = { _ in true }
) -> Double {
    values.withUnsafeBufferPointer { a in
        reference.withUnsafeBufferPointer { b in
            psnr(count: min(a.count, b.count), peak: peak, included) { Double(a[$0]) - Double(b[$0]) }
        }
    }
}

/// ``psnr(_:_:peak:where:)`` for 8-bit samples, through buffer pointers (see the 16-bit version).
public func psnr(
    _ values: [UInt8], _ reference: [UInt8], peak: Double, where included: (Int) -> Bool = { _ in true }
) -> Double {
    values.withUnsafeBufferPointer { a in
        reference.withUnsafeBufferPointer { b in
            psnr(count: min(a.count, b.count), peak: peak, included) { Double(a[$0]) - Double(b[$0]) }
        }
    }
}

/// ``psnr(_:_:peak:where:)`` for `Float` samples, through buffer pointers (see the 16-bit version).
public func psnr(
    _ values: [Float], _ reference: [Float], peak: Double = 1, where included: (Int) -> Bool = { _ in true }
) -> Double {
    values.withUnsafeBufferPointer { a in
        reference.withUnsafeBufferPointer { b in
            psnr(count: min(a.count, b.count), peak: peak, included) { Double(a[$0] - b[$0]) }
        }
    }
}

/// ``psnr(_:_:peak:where:)`` for `Double` samples, through buffer pointers (see the 16-bit version).
public func psnr(
    _ values: [Double], _ reference: [Double], peak: Double = 1, where included: (Int) -> Bool = { _ in true }
) -> Double {
    values.withUnsafeBufferPointer { a in
        reference.withUnsafeBufferPointer { b in
            psnr(count: min(a.count, b.count), peak: peak, included) { a[$0] - b[$0] }
        }
    }
}

/// The PSNR of the differences `difference(i)` for the indices below `count` that `included` selects.
private func psnr(count: Int, peak: Double, _ included: (Int) -> Bool, _ difference: (Int) -> Double) -> Double {
    var sum = 0.0
    var n = 0
    for i in 0..<count where included(i) {
        let d = difference(i)
        sum += d * d
        n += 1
    }
    return n == 0 ? .infinity : psnr(meanSquaredError: sum / Double(n), peak: peak)
}

/// The largest and the mean absolute difference of integer `values` against `reference`, sample by sample.
public func absoluteDifferences<Sample: BinaryInteger>(_ values: [Sample], _ reference: [Sample]) -> (
    largest: Int, mean: Double
) {
    absoluteDifferences(count: min(values.count, reference.count)) { Int(values[$0]) - Int(reference[$0]) }
}

/// ``absoluteDifferences(_:_:)`` for 16-bit samples, through buffer pointers: tests run in debug builds, where the
/// generic version's per-sample calls take about a second per million samples.
public func absoluteDifferences(_ values: [UInt16], _ reference: [UInt16]) -> (largest: Int, mean: Double) {
    values.withUnsafeBufferPointer { a in
        reference.withUnsafeBufferPointer { b in
            absoluteDifferences(count: min(a.count, b.count)) { Int(a[$0]) - Int(b[$0]) }
        }
    }
}

/// ``absoluteDifferences(_:_:)`` for 8-bit samples, through buffer pointers (see the 16-bit version).
public func absoluteDifferences(_ values: [UInt8], _ reference: [UInt8]) -> (largest: Int, mean: Double) {
    values.withUnsafeBufferPointer { a in
        reference.withUnsafeBufferPointer { b in
            absoluteDifferences(count: min(a.count, b.count)) { Int(a[$0]) - Int(b[$0]) }
        }
    }
}

/// The largest and the mean absolute value of `difference(i)` for the indices below `count`.
private func absoluteDifferences(count: Int, _ difference: (Int) -> Int) -> (largest: Int, mean: Double) {
    var largest = 0
    var total = 0
    for i in 0..<count {
        let d = abs(difference(i))
        largest = max(largest, d)
        total += d
    }
    return (largest, Double(total) / Double(max(1, count)))
}

/// The largest component difference of two colours or vectors.
public func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return max(abs(d.x), abs(d.y), abs(d.z))
}
