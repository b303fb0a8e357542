import LuxPixels
public import LuxRender

/// The built-in filters (one type per filter, named as in Core Image's catalogue).
///
/// Use them as typed values (`Filters.SepiaTone(image: photo, intensity: 0.8).outputImage`), through the
/// typed methods on ``LuxRender/Image`` (`photo.sepiaTone(intensity: 0.8)`), or by name
/// (`photo.applyingFilter("SepiaTone", parameters: ["intensity": 0.8])`).
public enum Filters {}

extension FilterRegistry {
    /// Every built-in filter.
    public static let builtIn = FilterRegistry([
        Filters.AffineTransform.self,
        Filters.ColorMatrix.self,
        Filters.Convolution3X3.self,
        Filters.Crop.self,
        Filters.ExposureAdjust.self,
        Filters.GaussianBlur.self,
        Filters.LanczosScaleTransform.self,
        Filters.LineScreen.self,
        Filters.RadialGradient.self,
        Filters.SepiaTone.self,
        Filters.SourceOverCompositing.self,
    ])
}

extension Image {
    /// Applies the built-in filter called `name`, with this image as its `image` parameter.
    ///
    /// ```swift
    /// let sepia = try photo.applyingFilter("SepiaTone", parameters: ["intensity": 0.8])
    /// ```
    ///
    /// - Throws: ``LuxRender/FilterError`` for unknown names or parameters and wrong values, listing what is
    ///   accepted.
    public func applyingFilter(_ name: String, parameters: [String: FilterValue] = [:]) throws(FilterError) -> Image {
        try applyingFilter(name, parameters: parameters, registry: .builtIn)
    }
}
