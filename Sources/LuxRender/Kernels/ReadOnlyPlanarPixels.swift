/// A span of pixels held as four read-only planes of `Float`: what an ``ImageProcessor`` reads from a
/// ``PixelLayout/planarRows`` input.
///
/// It is ``PlanarPixels`` with `UnsafePointer` planes. An input row can be a cached intermediate of the render
/// graph that later renders read again, so the type lets a processor read the planes (over whole rows, as with
/// ``PlanarPixels``) but not write them.
public struct ReadOnlyPlanarPixels {
    /// Red values, `count` of them.
    public let red: UnsafePointer<Float>
    /// Green values.
    public let green: UnsafePointer<Float>
    /// Blue values.
    public let blue: UnsafePointer<Float>
    /// Alpha values.
    public let alpha: UnsafePointer<Float>
    /// The number of pixels.
    public let count: Int

    /// Creates a view over four planes.
    public init(
        red: UnsafePointer<Float>, green: UnsafePointer<Float>, blue: UnsafePointer<Float>,
        alpha: UnsafePointer<Float>, count: Int
    ) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.count = count
    }

    /// Plane `channel`: 0 red, 1 green, 2 blue, 3 alpha.
    public func plane(_ channel: Int) -> UnsafePointer<Float> {
        switch channel {
        case 0: red
        case 1: green
        case 2: blue
        case 3: alpha
        default: preconditionFailure("channel \(channel) is not in 0...3")
        }
    }
}
