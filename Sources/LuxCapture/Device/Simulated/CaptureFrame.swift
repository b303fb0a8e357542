public import LuxColor
public import LuxPixels

/// What a frame or still was exposed with, and what a RAW file needs to describe it honestly.
public struct FrameMetadata: Hashable, Sendable {
    /// The exposure duration.
    public var exposureDuration: MediaTime
    /// The ISO.
    public var iso: Float
    /// The lens position (0 macro … 1 far).
    public var lensPosition: Float
    /// The distance the lens focused at, in metres.
    public var focusDistance: Double
    /// The f-number (fixed).
    public var fNumber: Double
    /// The focal length in millimetres.
    public var focalLength: Double
    /// The device white-balance gains in effect.
    public var whiteBalanceGains: WhiteBalanceGains
    /// The metered exposure target offset (EV) of this frame.
    public var exposureTargetOffset: Float
    /// The exposure target bias (EV) in effect.
    public var exposureTargetBias: Float
    /// Whether the flash fired.
    public var flashFired: Bool
    /// The contrast focus score of the autofocus window, when autofocus measured this frame.
    public var focusScore: Double?
    /// The RAW description (CFA, levels, colour calibration, noise profile).
    public var raw: RAWDescription
}

/// The DNG-level description of a Bayer frame.
public struct RAWDescription: Hashable, Sendable {
    /// The CFA layout.
    public var cfaPattern: CFAPattern
    /// The ADC code of zero light.
    public var blackLevel: Int
    /// The largest ADC code.
    public var whiteLevel: Int
    /// The colour calibration (ColorMatrix1/2 under illuminants A and D65, ForwardMatrix1/2).
    public var calibration: CameraCalibration
    /// The camera neutral of the white balance in effect, largest component 1 (DNG AsShotNeutral).
    public var asShotNeutral: SIMD3<Double>
    /// The white's chromaticity for that neutral (DNG AsShotWhiteXY).
    public var asShotWhite: Chromaticity
    /// The DNG NoiseProfile pair (S, O) shared by all CFA planes: variance of x = (DN − black)/(white − black)
    /// is S·x + O.
    public var noiseProfile: SIMD2<Double>
    /// Photosites per output pixel along each axis (1 for full-resolution stills; 4 for photo-format previews).
    public var binning: Double
    /// Photosites a DNG of the frame records on each side of the picture, outside its default crop (an even number).
    ///
    /// Cameras read out a slightly larger area than the picture so a demosaicer has neighbours at its edges, and
    /// the Adobe DNG SDK warns about a default crop without them. The simulated sensor records 8 (a 4032 × 3024
    /// photo is a 4048 × 3040 DNG), filled with the picture's edge photosites mirrored; a V4L2 camera records
    /// none (its DNG holds what the device delivered).
    public var cropMargin: Int = 0
}

/// A frame from a capture device: its time on the device clock, its pixels and what produced them.
public struct CaptureFrame: Sendable {
    /// The frame's number since the device was created.
    public var index: Int
    /// The presentation time: the start of the exposure on the device clock.
    public var presentationTime: MediaTime
    /// The time until the next frame.
    public var duration: MediaTime
    /// The processed image in the stream's pixel format (or the configuration's ``StreamConfiguration/pixelFormat``)
    /// and colour space, when requested.
    public var image: PixelBuffer?
    /// The Bayer RAW data, when requested.
    public var raw: PixelBuffer?
    /// Exposure, focus and colour metadata.
    public var metadata: FrameMetadata
}

/// How a stream delivers frames.
public struct StreamConfiguration: Hashable, Sendable {
    /// Deliver processed frames (in the active format's pixel format, or ``pixelFormat``, and the device's colour
    /// space).
    public var deliversProcessedFrames: Bool
    /// Deliver the Bayer RAW data too.
    public var deliversRAW: Bool
    /// The size frames are read out and delivered at, instead of the active format's stream size: a scaled output such
    /// as the 1440×1080 movie frames a Live Photo keeps while a 4:3 photo format is active.
    ///
    /// It must have the aspect ratio of the format's sensor region (within a pixel) and be no larger than the format.
    /// `nil`: the format's stream size.
    public var outputDimensions: Dimensions?
    /// The pixel format processed frames are delivered in (`nil`: the active format's).
    ///
    /// 8-bit RGBA for a consumer that compresses them as JPEGs, so they are not made as Y′CbCr and converted back. A
    /// device that cannot deliver it delivers the active format's.
    package var pixelFormat: PixelFormat?

    /// A frame size in pixels.
    public struct Dimensions: Hashable, Sendable, CustomStringConvertible {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// Creates a size.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        public var description: String { "\(width)×\(height)" }
    }

    /// Creates a configuration.
    public init(deliversProcessedFrames: Bool = true, deliversRAW: Bool = false, outputDimensions: Dimensions? = nil) {
        self.deliversProcessedFrames = deliversProcessedFrames
        self.deliversRAW = deliversRAW
        self.outputDimensions = outputDimensions
    }
}

/// A request for one still exposure at the active format's full resolution (photos and each frame of a bracket).
public struct StillRequest: Hashable, Sendable {
    /// How the still is exposed.
    public enum Exposure: Hashable, Sendable {
        /// With the device's current duration and ISO.
        case current
        /// With the auto-exposure target shifted by `bias` EV (an auto-exposure bracket frame).
        ///
        /// The 0 EV base keeps highlights: where the stream is metered for a room and lets a bright window clip, the
        /// base is the exposure that gives up at most 1 EV of the scene to the highlights, so a −2 EV frame still
        /// holds the window.
        case auto(bias: Float)
        /// With an explicit duration and ISO (a manual bracket frame).
        case manual(duration: MediaTime, iso: Float)
    }

    /// The exposure.
    public var exposure: Exposure
    /// Whether the flash fires.
    public var flash: Bool
    /// A processed output in this pixel format and colour space, besides the RAW.
    ///
    /// The 8-bit formats with a fused development (Y′CbCr, BGRA, RGBA) are drawn from the camera's buffer pool, as the
    /// RAW is.
    public var processedFormat: PixelFormat?
    /// The colour space of the processed output.
    public var colorSpace: CaptureColorSpace

    /// Creates a request.
    public init(
        exposure: Exposure = .current, flash: Bool = false, processedFormat: PixelFormat? = nil,
        colorSpace: CaptureColorSpace = .sRGB
    ) {
        self.exposure = exposure
        self.flash = flash
        self.processedFormat = processedFormat
        self.colorSpace = colorSpace
    }
}

/// One still exposure: the Bayer RAW with its metadata, and optionally a processed image.
public struct StillCapture: Sendable {
    /// The presentation time on the device clock.
    public var presentationTime: MediaTime
    /// The Bayer-14 RAW data.
    public var raw: PixelBuffer
    /// The processed image, when the request asked for one.
    public var image: PixelBuffer?
    /// What it was exposed with.
    public var metadata: FrameMetadata
}
