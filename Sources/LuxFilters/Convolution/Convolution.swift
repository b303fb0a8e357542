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
    public struct Convolution<Shape: ConvolutionShape>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Shape.name, displayName: Shape.displayName,
                categories: [.stylize, .sharpen, .stillImage, .video, .highDynamicRange],
                summary: "Convolves with a \(Shape.width)×\(Shape.height) weight matrix.",
                .image(\.image),
                .parameter(
                    "weights", \.weights,
                    summary: "\(Shape.width * Shape.height) weights, row by row from the top left."),
                .parameter("bias", \.bias, slider: -1...1, summary: "Added to red, green and blue."))
        }

        public var image: Image = .empty
        /// `width · height` weights, row by row from the top left (the default is the identity).
        public var weights = Self.identity
        /// Added to red, green and blue.
        public var bias: Double = 0

        public init() {}

        /// The weights that keep the image as it is.
        static var identity: [Double] {
            let n = Shape.width * Shape.height
            return (0..<n).map { $0 == n / 2 ? 1.0 : 0 }
        }

        /// The result.
        ///
        /// - Precondition: `weights.count == Shape.width · Shape.height`.
        public var outputImage: Image {
            precondition(
                weights.count == Shape.width * Shape.height, "\(Shape.name) needs \(Shape.width * Shape.height) weights"
            )
            let taps = ConvolutionTaps(width: Shape.width, height: Shape.height, weights: weights)
            return image.convolved(
                Shape.name, taps: taps, bias: Float(bias), arguments: "weights=\(describe(weights)) bias=\(bias)")
        }
    }
}
