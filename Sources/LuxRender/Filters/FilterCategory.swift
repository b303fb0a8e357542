/// A group filters are listed under (the CIFilter category role).
///
/// An open set: add your own with `FilterCategory("MyCategory")`.
public struct FilterCategory: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The category's name.
    public let name: String

    /// Creates a category.
    public init(_ name: String) { self.name = name }

    public static func < (a: FilterCategory, b: FilterCategory) -> Bool { a.name < b.name }
    public var description: String { name }

    /// Blurs: Gaussian, box, motion and others.
    public static let blur = FilterCategory("Blur")
    /// Adjustments of colour values: exposure, matrices, curves and others.
    public static let colorAdjustment = FilterCategory("ColorAdjustment")
    /// Stylised colour changes: sepia, monochrome, photo effects and others.
    public static let colorEffect = FilterCategory("ColorEffect")
    /// Porter–Duff compositing and blend modes.
    public static let compositeOperation = FilterCategory("CompositeOperation")
    /// Distortions.
    public static let distortionEffect = FilterCategory("DistortionEffect")
    /// Images made from nothing: gradients, patterns, constant colours.
    public static let generator = FilterCategory("Generator")
    /// Geometry: transforms, crops, scaling.
    public static let geometryAdjustment = FilterCategory("GeometryAdjustment")
    /// Gradients.
    public static let gradient = FilterCategory("Gradient")
    /// Halftone screens.
    public static let halftoneEffect = FilterCategory("HalftoneEffect")
    /// Reductions of a region to a value (averages, histograms).
    public static let reduction = FilterCategory("Reduction")
    /// Sharpening.
    public static let sharpen = FilterCategory("Sharpen")
    /// Stylise.
    public static let stylize = FilterCategory("Stylize")
    /// Tiling.
    public static let tileEffect = FilterCategory("TileEffect")
    /// Transitions.
    public static let transition = FilterCategory("Transition")
    /// Suitable for still images.
    public static let stillImage = FilterCategory("StillImage")
    /// Suitable for video.
    public static let video = FilterCategory("Video")
    /// Works on extended-range (HDR) values.
    public static let highDynamicRange = FilterCategory("HighDynamicRange")
    /// Ships with Lux.
    public static let builtIn = FilterCategory("BuiltIn")
}
