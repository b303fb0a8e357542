public import LuxRender

/// The size and names of a convolution filter (the shapes of ``Filters/Convolution``).
public protocol ConvolutionShape: Sendable {
    /// Kernel width in pixels (odd).
    static var width: Int { get }
    /// Kernel height in pixels (odd).
    static var height: Int { get }
    /// The filter name (`Convolution5X5`).
    static var name: String { get }
    /// The name for people.
    static var displayName: String { get }
}

extension Filters {
    /// Convolves with a `width`×`height` matrix of weights (row-major from the top-left neighbour; y grows
    /// downwards) and adds `bias` to red, green and blue.
    ///
    /// All four premultiplied channels are convolved, so weights that sum to 1 keep opaque images opaque. The
    /// extent grows by the kernel's half-size; outside the input's extent it reads transparent (convolve
    /// `image.clampedToExtent()` and crop to repeat the edges instead). Each tap is one vectorised pass over the
    /// row.
    public struct Convolution<Shape: ConvolutionShape>: Filter {
        public static var descriptor: FilterDescriptor {
            let n = Shape.width * Shape.height
            let identity = (0..<n).map { $0 == n / 2 ? 1.0 : 0 }
            return FilterDescriptor(
                name: Shape.name, displayName: Shape.displayName,
                categories: [.stylize, .sharpen, .stillImage, .video, .highDynamicRange],
                summary: "Convolves with a \(Shape.width)×\(Shape.height) weight matrix.",
                parameters: [
                    .image(),
                    .vector("weights", default: identity, summary: "\(n) weights, row by row from the top left."),
                    .number("bias", default: 0, slider: -1...1, summary: "Added to red, green and blue."),
                ])
        }

        public var image: Image
        public var weights: [Double]
        public var bias: Double

        /// Creates the filter.
        ///
        /// - Precondition: `weights.count == Shape.width · Shape.height`.
        public init(image: Image, weights: [Double], bias: Double = 0) {
            precondition(
                weights.count == Shape.width * Shape.height, "\(Shape.name) needs \(Shape.width * Shape.height) weights"
            )
            self.image = image
            self.weights = weights
            self.bias = bias
        }

        public init(arguments a: FilterArguments) {
            self.init(image: a.image(), weights: a.vector("weights"), bias: a.number("bias"))
        }

        public var outputImage: Image {
            let taps = ConvolutionTaps(width: Shape.width, height: Shape.height, weights: weights)
            return image.convolved(
                Shape.name, taps: taps, bias: Float(bias), arguments: "weights=\(describe(weights)) bias=\(bias)")
        }
    }
}
