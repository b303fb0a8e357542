public import LuxPixels

/// A decoded picture as a video codec stores it: Y′, Cb and Cr planes of integer codes, with the matrix and range
/// that turn them into R′G′B′.
///
/// Codes are kept as `UInt16` whatever the bit depth (8-bit codes are 0…255, 10-bit 0…1023). The chroma planes are
/// `chromaWidth` × `chromaHeight` (half the luma size each way for 4:2:0).
///
/// ```swift
/// var options = VideoDecodingOptions()
/// options.keepsPlanes = true
/// let reader = try VideoFrameReader(movie: movie, options: options)
/// if let planes = try reader.next()?.planes {
///     print(planes.bitDepth, planes.matrix, planes.isFullRange, planes.luma[0])
/// }
/// ```
public struct YCbCrPlanes: Hashable, Sendable {
    /// The picture's width in pixels.
    public var width: Int
    /// The picture's height in pixels.
    public var height: Int
    /// The chroma planes' width.
    public var chromaWidth: Int
    /// The chroma planes' height.
    public var chromaHeight: Int
    /// Bits per code (8, 10 or 12).
    public var bitDepth: Int
    /// The matrix between R′G′B′ and Y′CbCr the stream declares (BT.709 for HD video that declares none, BT.601 below).
    public var matrix: YCbCrMatrix
    /// Whether codes span the full range (0…2ⁿ−1) rather than the video range (16…235 scaled to the bit depth).
    public var isFullRange: Bool
    /// Y′ codes, row by row (`width` × `height`).
    public var luma: [UInt16]
    /// Cb codes, row by row (`chromaWidth` × `chromaHeight`).
    public var cb: [UInt16]
    /// Cr codes, row by row (`chromaWidth` × `chromaHeight`).
    public var cr: [UInt16]

    /// Creates planes.
    public init(
        width: Int, height: Int, chromaWidth: Int, chromaHeight: Int, bitDepth: Int, matrix: YCbCrMatrix,
        isFullRange: Bool, luma: [UInt16], cb: [UInt16], cr: [UInt16]
    ) {
        self.width = width
        self.height = height
        self.chromaWidth = chromaWidth
        self.chromaHeight = chromaHeight
        self.bitDepth = bitDepth
        self.matrix = matrix
        self.isFullRange = isFullRange
        self.luma = luma
        self.cb = cb
        self.cr = cr
    }
}
