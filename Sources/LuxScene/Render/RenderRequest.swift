/// What to render: which part of the frame, at what size, over which time interval, as seen by which
/// detector, through which optics.
public struct RenderRequest: Sendable {
    /// The part of the frame to render, in scene units (the full frame is origin 0, size (1, 0.75)).
    public var regionOrigin: SIMD2<Double>
    /// The size of the rendered region in scene units.
    public var regionSize: SIMD2<Double>
    /// Output width in pixels.
    public var width: Int
    /// Output height in pixels.
    public var height: Int
    /// When the exposure starts, in seconds on the scene's clock.
    public var exposureStart: Double
    /// How long the exposure lasts in seconds (motion during it blurs the image; 0 renders an instant).
    public var exposureDuration: Double
    /// The detector: ``SpectralResponse/cie1931`` gives XYZ, a camera's response gives raw channels.
    public var response: SpectralResponse
    /// The lens and where it focuses; `nil` renders every layer sharp (a pinhole).
    public var optics: Optics?
    /// A flash fired during the exposure, if any.
    public var flash: Flash?
    /// The most time samples used to integrate motion blur.
    public var maxMotionSamples: Int

    /// The lens state for defocus.
    public struct Optics: Sendable, Hashable {
        /// The lens.
        public var lens: ThinLens
        /// Where it focuses, in metres.
        public var focusDistance: Double
        /// The width of the full frame on the sensor in millimetres.
        public var sensorWidth: Double

        /// Creates an optics state.
        public init(lens: ThinLens, focusDistance: Double, sensorWidth: Double) {
            self.lens = lens
            self.focusDistance = focusDistance
            self.sensorWidth = sensorWidth
        }
    }

    /// Creates a request for the full frame.
    public init(
        width: Int, height: Int, exposureStart: Double = 0, exposureDuration: Double = 0,
        response: SpectralResponse = .cie1931, optics: Optics? = nil, flash: Flash? = nil, maxMotionSamples: Int = 16
    ) {
        self.regionOrigin = .zero
        self.regionSize = SIMD2(1, Scene.frameHeight)
        self.width = width
        self.height = height
        self.exposureStart = exposureStart
        self.exposureDuration = exposureDuration
        self.response = response
        self.optics = optics
        self.flash = flash
        self.maxMotionSamples = maxMotionSamples
    }

    /// Scene units per output pixel (horizontal).
    public var sceneUnitsPerPixel: Double { regionSize.x / Double(width) }

    /// Whether strongly defocused layers may be rendered on coarser cards and interpolated (see
    /// ``LayerPlan``); tests turn it off to compare against rendering every layer on the grid.
    var allowsCoarseCards = true

    /// The same region on a grid `s` times coarser, whose pixel `i` covers pixels `i·s ..< (i + 1)·s` of this
    /// grid (one pixel more than needed on the right and bottom, for interpolation).
    func coarsened(by s: Int) -> RenderRequest {
        var r = self
        let px = SIMD2(sceneUnitsPerPixel, regionSize.y / Double(height))
        r.width = (width + s - 1) / s + 1
        r.height = (height + s - 1) / s + 1
        r.regionSize = SIMD2(Double(r.width * s), Double(r.height * s)) * px
        return r
    }

    /// The focal length in frame widths (how far the image moves per radian of camera rotation).
    var focalLengthInFrameWidths: Double {
        guard let optics else { return 4.25 / 5.6448 }
        return optics.lens.focalLength / optics.sensorWidth
    }
}
