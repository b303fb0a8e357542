import LuxColor
public import LuxPixels
import RealModule

/// An image used as scene content: its colours taken as surface reflectances seen under D65, with an
/// optional depth map, stored as a mip-mapped texture of ``SurfaceColor`` coefficients.
///
/// Any ``PixelBuffer`` with a colour space works: values are linearised and converted to XYZ with Bradford
/// adaptation to D65, then to reflectance coefficients, so the image's white becomes a white surface that
/// takes on the colour of whatever light the scene puts on it.
public struct SceneImage: Sendable {
    /// Width of the full-resolution level in pixels.
    public var width: Int { levels[0].width }
    /// Height of the full-resolution level in pixels.
    public var height: Int { levels[0].height }
    /// Whether a depth map came with the image.
    public let hasDepth: Bool
    let levels: [PlanarBuffer<Float>]
    /// For each level with depth, the nearest and farthest depth in each block of texels (empty without depth).
    let depthBlocks: [DepthBlocks]

    /// The linear luminance (of the image's white) above which ``init(buffer:depthMap:highlightStops:)`` makes
    /// colours brighter than a reflectance.
    public static let highlightThreshold = 0.85

    /// Creates an image texture.
    ///
    /// - Parameters:
    ///   - buffer: The image; its `colorSpace` says how to read it (sRGB is assumed when it has none).
    ///   - depthMap: Distances in metres, one per pixel (any single-channel or RGB format; the first channel
    ///     is read), resampled to the image size when it differs.
    ///   - highlightStops: How many stops above the image's white its brightest parts are: a photograph's windows,
    ///     lamps and sky are clipped near its white, so colours whose luminance exceeds
    ///     ``highlightThreshold`` are made brighter, up to 2^`highlightStops` times at the image's white (0: the
    ///     image is all reflectances).
    /// - Throws: ``SceneError/unsupportedImage(_:)`` for Bayer or colour spaces without a matrix.
    public init(buffer: PixelBuffer, depthMap: PixelBuffer? = nil, highlightStops: Double = 0) throws(SceneError) {
        if buffer.format.isBayer { throw .unsupportedImage("a Bayer mosaic cannot be scene content; develop it first") }
        let space = buffer.colorSpace ?? .sRGB
        let converter: ColorConverter
        do {
            converter = try ColorConverter(from: space, to: ColorSpace.linearSRGB.withExtendedRange(true))
        } catch {
            throw .unsupportedImage("cannot read colours in \(space): \(error)")
        }
        // linear sRGB (D65) → XYZ → band coefficients, one matrix.
        let toXYZ = RGBPrimaries.rec709.matrixToXYZ(white: WhitePoint.d65) ?? .identity
        let m = SpectralResponse.cie1931.coefficientMatrix(under: .d65)
        let white = m * SIMD3(repeating: 1)
        let scale = Matrix3x3.diagonal(white / WhitePoint.d65.xyz())
        let toCoefficients = (m.inverse ?? .identity) * scale * toXYZ
        let k = toCoefficients.entries.map(Float.init)
        let boost = Float(max(highlightStops, 0))
        let threshold = Float(Self.highlightThreshold)
        let w = buffer.width
        let h = buffer.height
        let level = PlanarBuffer<Float>(width: w, height: h, planes: 4)
        let rgba = UnsafeMutablePointer<Float>.allocate(capacity: w * 4)
        defer { rgba.deallocate() }
        for y in 0..<h {
            buffer.readRGBAFloat(row: y, into: rgba)
            converter.convertInPlace(rgba: rgba, count: w)
            let c0 = level.row(0, y)
            let c1 = level.row(1, y)
            let c2 = level.row(2, y)
            for x in 0..<w {
                var r = rgba[4 * x]
                var g = rgba[4 * x + 1]
                var b = rgba[4 * x + 2]
                if boost > 0 {
                    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    if y > threshold {
                        let gain = Float.exp2(boost * min(1, (y - threshold) / (1 - threshold)))
                        r *= gain
                        g *= gain
                        b *= gain
                    }
                }
                c0[x] = k[0] * r + k[1] * g + k[2] * b
                c1[x] = k[3] * r + k[4] * g + k[5] * b
                c2[x] = k[6] * r + k[7] * g + k[8] * b
            }
        }
        if let depthMap {
            let dw = depthMap.width
            let dh = depthMap.height
            let drow = UnsafeMutablePointer<Float>.allocate(capacity: dw * 4)
            defer { drow.deallocate() }
            var lastY = -1
            for y in 0..<h {
                let sy = min(dh - 1, y * dh / h)
                if sy != lastY {
                    depthMap.readRGBAFloat(row: sy, into: drow)
                    lastY = sy
                }
                let d = level.row(3, y)
                for x in 0..<w { d[x] = drow[4 * min(dw - 1, x * dw / w)] }
            }
            hasDepth = true
        } else {
            hasDepth = false
        }
        var pyramid = [level]
        while let last = pyramid.last, last.width > 1 || last.height > 1 {
            pyramid.append(Self.halved(last))
        }
        levels = pyramid
        depthBlocks = hasDepth ? pyramid.map(DepthBlocks.init) : []
    }

    /// A 2×2 box-filtered level (depth is averaged too, which only matters at depth edges).
    static func halved(_ src: PlanarBuffer<Float>) -> PlanarBuffer<Float> {
        let w = max(1, src.width / 2)
        let h = max(1, src.height / 2)
        let dst = PlanarBuffer<Float>(width: w, height: h, planes: src.planeCount)
        for p in 0..<src.planeCount {
            for y in 0..<h {
                let a = src.row(p, min(src.height - 1, 2 * y))
                let b = src.row(p, min(src.height - 1, 2 * y + 1))
                let o = dst.row(p, y)
                for x in 0..<w {
                    let x0 = min(src.width - 1, 2 * x)
                    let x1 = min(src.width - 1, 2 * x + 1)
                    o[x] = 0.25 * (a[x0] + a[x1] + b[x0] + b[x1])
                }
            }
        }
        return dst
    }

    /// The level a shape `size` scene units wide samples when an output pixel is `pixel` scene units wide.
    func level(pixel: Double, size: Double) -> Int {
        level(forTexelsPerPixel: pixel / (size / Double(width)))
    }

    /// The texels of level `l` whose depth lies in `range` (rows `y0..<y1`, columns `x0..<x1`, whole blocks), or nil
    /// when none does; the whole level without a depth map.
    func texelBounds(depth range: ClosedRange<Float>, level l: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let level = levels[l]
        guard hasDepth else { return (0, 0, level.width, level.height) }
        let blocks = depthBlocks[l]
        var x0 = Int.max
        var y0 = Int.max
        var x1 = Int.min
        var y1 = Int.min
        for by in 0..<blocks.rows {
            for bx in 0..<blocks.columns {
                let i = by * blocks.columns + bx
                guard blocks.low[i] <= range.upperBound, blocks.high[i] >= range.lowerBound else { continue }
                x0 = min(x0, bx)
                y0 = min(y0, by)
                x1 = max(x1, bx + 1)
                y1 = max(y1, by + 1)
            }
        }
        guard x1 > x0 else { return nil }
        let s = DepthBlocks.side
        return (x0 * s, y0 * s, min(level.width, x1 * s), min(level.height, y1 * s))
    }

    /// The level to sample when one output pixel spans `texelsPerPixel` full-resolution texels.
    func level(forTexelsPerPixel t: Double) -> Int {
        var l = 0
        var span = t
        while span >= 2, l + 1 < levels.count {
            span /= 2
            l += 1
        }
        return l
    }
}

/// The depth range of each `side` × `side` block of one texture level, so that a depth slice finds the part of the
/// image it covers without reading every texel.
struct DepthBlocks: Sendable {
    static let side = 16
    let columns: Int
    let rows: Int
    let low: [Float]
    let high: [Float]

    init(_ level: PlanarBuffer<Float>) {
        let s = Self.side
        columns = (level.width + s - 1) / s
        rows = (level.height + s - 1) / s
        var low = [Float](repeating: .greatestFiniteMagnitude, count: columns * rows)
        var high = [Float](repeating: -.greatestFiniteMagnitude, count: columns * rows)
        for y in 0..<level.height {
            let r = level.row(3, y)
            let base = (y / s) * columns
            for x in 0..<level.width {
                let i = base + x / s
                low[i] = min(low[i], r[x])
                high[i] = max(high[i], r[x])
            }
        }
        self.low = low
        self.high = high
    }
}

/// Errors thrown by LuxScene.
public enum SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No scene has this name.
    case unknownScene(name: String, known: [String])
    /// An image cannot be used as scene content.
    case unsupportedImage(String)
    /// A render request is not valid (size, region or time).
    case invalidRequest(String)
    /// A file cannot be read as scene content.
    case unreadableFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownScene(let name, let known):
            "no scene is called “\(name)”; known scenes: \(known.joined(separator: ", "))"
        case .unsupportedImage(let reason): "image cannot be used as a scene: \(reason)"
        case .invalidRequest(let reason): "invalid render request: \(reason)"
        case .unreadableFile(let path, let reason): "\(path): cannot be used as a scene: \(reason)"
        }
    }
}
