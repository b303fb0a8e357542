/// A span of pixels held as four planes of `Float` (structure of arrays): the form colour kernels work on.
///
/// Planar rows let a kernel's scalar loop (`for i in 0..<count { red[i] = … }`) vectorise to the full
/// register width without shuffles. Values are in the render's working space; whether they are
/// premultiplied depends on the kernel's ``ColorKernel/AlphaHandling``.
public struct PlanarPixels {
    /// Red values, `count` of them.
    public let red: UnsafeMutablePointer<Float>
    /// Green values.
    public let green: UnsafeMutablePointer<Float>
    /// Blue values.
    public let blue: UnsafeMutablePointer<Float>
    /// Alpha values.
    public let alpha: UnsafeMutablePointer<Float>
    /// The number of pixels.
    public let count: Int

    /// Creates a view over four planes.
    public init(
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>,
        alpha: UnsafeMutablePointer<Float>, count: Int
    ) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.count = count
    }

    /// Four consecutive planes of `stride` floats starting at `base`.
    init(base: UnsafeMutablePointer<Float>, stride: Int, count: Int) {
        self.init(red: base, green: base + stride, blue: base + 2 * stride, alpha: base + 3 * stride, count: count)
    }

    /// The same planes starting `offset` pixels later, `count` long.
    func advanced(by offset: Int, count n: Int) -> PlanarPixels {
        PlanarPixels(red: red + offset, green: green + offset, blue: blue + offset, alpha: alpha + offset, count: n)
    }

    /// Plane `channel`: 0 red, 1 green, 2 blue, 3 alpha.
    public func plane(_ channel: Int) -> UnsafeMutablePointer<Float> {
        switch channel {
        case 0: red
        case 1: green
        case 2: blue
        case 3: alpha
        default: preconditionFailure("channel \(channel) is not in 0...3")
        }
    }

    /// Pixel `i` as a vector (slow; for tests and scattered access).
    public subscript(i: Int) -> SIMD4<Float> {
        get { SIMD4(red[i], green[i], blue[i], alpha[i]) }
        nonmutating set {
            red[i] = newValue.x
            green[i] = newValue.y
            blue[i] = newValue.z
            alpha[i] = newValue.w
        }
    }

    /// Copies the `count` pixels of `source` into these planes.
    func update(from source: PlanarPixels) {
        red.update(from: source.red, count: count)
        green.update(from: source.green, count: count)
        blue.update(from: source.blue, count: count)
        alpha.update(from: source.alpha, count: count)
    }

    /// Sets pixels `range` to transparent black.
    func zero(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let n = range.count
        (red + range.lowerBound).update(repeating: 0, count: n)
        (green + range.lowerBound).update(repeating: 0, count: n)
        (blue + range.lowerBound).update(repeating: 0, count: n)
        (alpha + range.lowerBound).update(repeating: 0, count: n)
    }

    /// Sets pixels `range` to `value`.
    func fill(_ range: Range<Int>, with value: SIMD4<Float>) {
        guard !range.isEmpty else { return }
        let n = range.count
        (red + range.lowerBound).update(repeating: value.x, count: n)
        (green + range.lowerBound).update(repeating: value.y, count: n)
        (blue + range.lowerBound).update(repeating: value.z, count: n)
        (alpha + range.lowerBound).update(repeating: value.w, count: n)
    }
}
