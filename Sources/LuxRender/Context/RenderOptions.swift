public import LuxColor
public import LuxPixels

/// How a ``RenderContext`` renders (the CIContext options).
public struct RenderOptions: Hashable, Sendable {
    /// The colour space kernels compute in.
    ///
    /// Default: ``ColorSpace/extendedLinearSRGB`` (linear light, values outside 0…1 kept). `nil` turns colour
    /// management off: values pass through unconverted.
    public var workingColorSpace: ColorSpace?
    /// The storage format of intermediates: ``PixelFormat/rgbaHalf`` (default), ``PixelFormat/rgbaFloat`` or
    /// ``PixelFormat/rgba8`` (which clips to 0…1).
    ///
    /// Fused programs always compute in `Float`.
    public var workingFormat: PixelFormat
    /// Whether rendered buffers hold premultiplied colour.
    ///
    /// Default `false` (what files store).
    public var outputPremultiplied: Bool
    /// Whether materialised intermediates are kept for later renders with this context.
    public var cacheIntermediates: Bool
    /// The most bytes the intermediate cache holds (least recently used entries go first).
    public var cacheByteLimit: Int
    /// Renders in the background: at most one worker thread unless ``threadCount`` says otherwise.
    public var lowPriority: Bool
    /// Worker threads (`nil`: one per processor).
    public var threadCount: Int?
    /// The edge length of output tiles in pixels.
    ///
    /// Output is identical for any tile size.
    public var tileSize: Int

    /// Creates options; every parameter has the default described on its property.
    public init(
        workingColorSpace: ColorSpace? = .extendedLinearSRGB, workingFormat: PixelFormat = .rgbaHalf,
        outputPremultiplied: Bool = false, cacheIntermediates: Bool = true, cacheByteLimit: Int = 128 << 20,
        lowPriority: Bool = false, threadCount: Int? = nil, tileSize: Int = 512
    ) {
        self.workingColorSpace = workingColorSpace
        self.workingFormat = workingFormat
        self.outputPremultiplied = outputPremultiplied
        self.cacheIntermediates = cacheIntermediates
        self.cacheByteLimit = cacheByteLimit
        self.lowPriority = lowPriority
        self.threadCount = threadCount
        self.tileSize = tileSize
    }

    /// The working formats the engine supports.
    public static let workingFormats: [PixelFormat] = [.rgbaHalf, .rgbaFloat, .rgba8]
}
