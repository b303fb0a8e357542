public import LuxRender

/// The kernel sizes of the built-in convolution filters.
public enum ConvolutionShapes {
    /// 5×5.
    public enum Square5: ConvolutionShape {
        public static let width = 5
        public static let height = 5
        public static let name = "Convolution5X5"
        public static let displayName = "5 by 5 Convolution"
    }

    /// 7×7.
    public enum Square7: ConvolutionShape {
        public static let width = 7
        public static let height = 7
        public static let name = "Convolution7X7"
        public static let displayName = "7 by 7 Convolution"
    }

    /// Nine taps in a row.
    public enum Horizontal9: ConvolutionShape {
        public static let width = 9
        public static let height = 1
        public static let name = "Convolution9Horizontal"
        public static let displayName = "9-Tap Horizontal Convolution"
    }

    /// Nine taps in a column.
    public enum Vertical9: ConvolutionShape {
        public static let width = 1
        public static let height = 9
        public static let name = "Convolution9Vertical"
        public static let displayName = "9-Tap Vertical Convolution"
    }
}

extension Filters {
    /// A 5×5 convolution (see ``Convolution``).
    public typealias Convolution5X5 = Convolution<ConvolutionShapes.Square5>
    /// A 7×7 convolution (see ``Convolution``).
    public typealias Convolution7X7 = Convolution<ConvolutionShapes.Square7>
    /// A horizontal 9-tap convolution, weights left to right (see ``Convolution``).
    public typealias Convolution9Horizontal = Convolution<ConvolutionShapes.Horizontal9>
    /// A vertical 9-tap convolution, weights top to bottom (see ``Convolution``).
    public typealias Convolution9Vertical = Convolution<ConvolutionShapes.Vertical9>
}

extension Image {
    /// The image convolved with a 5×5 kernel, weights row by row (see ``Filters/Convolution``).
    public func convolution5X5(weights: [Double], bias: Double = 0) -> Image {
        applyingFilter(
            Filters.Convolution5X5 {
                $0.weights = weights
                $0.bias = bias
            })
    }

    /// The image convolved with a 7×7 kernel, weights row by row (see ``Filters/Convolution``).
    public func convolution7X7(weights: [Double], bias: Double = 0) -> Image {
        applyingFilter(
            Filters.Convolution7X7 {
                $0.weights = weights
                $0.bias = bias
            })
    }

    /// The image convolved with nine horizontal taps (see ``Filters/Convolution``).
    public func convolution9Horizontal(weights: [Double], bias: Double = 0) -> Image {
        applyingFilter(
            Filters.Convolution9Horizontal {
                $0.weights = weights
                $0.bias = bias
            })
    }

    /// The image convolved with nine vertical taps (see ``Filters/Convolution``).
    public func convolution9Vertical(weights: [Double], bias: Double = 0) -> Image {
        applyingFilter(
            Filters.Convolution9Vertical {
                $0.weights = weights
                $0.bias = bias
            })
    }
}
