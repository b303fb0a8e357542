import Foundation
import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import Synchronization
import Testing

/// Random opaque (or translucent) RGBA float buffers with colour values in `range`.
func randomBuffer(
    width: Int, height: Int, seed: UInt64, colorSpace: ColorSpace? = .extendedLinearSRGB, alpha: Bool = false,
    range: ClosedRange<Float> = 0...1
) -> PixelBuffer {
    var rng = SplitMix(seed: seed)
    var c: [Float] = []
    c.reserveCapacity(4 * width * height)
    let span = range.upperBound - range.lowerBound
    for _ in 0..<(width * height) {
        for _ in 0..<3 { c.append(range.lowerBound + span * rng.unit()) }
        c.append(alpha ? 0.2 + 0.8 * rng.unit() : 1)
    }
    return PixelBuffer(width: width, height: height, format: .rgbaFloat, components: c, colorSpace: colorSpace)
}

/// A `size × size` coordinate ramp: red and green are the pixel centre's x and y, blue and alpha 1, so a warped
/// render tells at each pixel where it read (bilinear sampling reproduces the ramp exactly inside it).
func coordinateRamp(size: Int) -> Image {
    var c = [Float](repeating: 1, count: 4 * size * size)
    for y in 0..<size {
        for x in 0..<size {
            c[4 * (y * size + x)] = Float(x) + 0.5
            c[4 * (y * size + x) + 1] = Float(y) + 0.5
        }
    }
    return Image(buffer: PixelBuffer(width: size, height: size, format: .rgbaFloat, components: c))
}

/// A context that computes exactly in float with no colour management (for algebraic oracles).
let exactContext = RenderContext(
    options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat, threadCount: 2, tileSize: 64))

func renderFloat(_ image: Image, _ rect: Rect? = nil, context: RenderContext = exactContext) throws -> [Float] {
    try context.createBuffer(image, from: rect, format: .rgbaFloat, colorSpace: nil).components(as: Float.self)
}

/// Pixel `p` of interleaved RGBA components, in Double.
func pixel(_ c: [Float], _ p: Int) -> SIMD4<Double> {
    SIMD4(Double(c[4 * p]), Double(c[4 * p + 1]), Double(c[4 * p + 2]), Double(c[4 * p + 3]))
}

/// Checks every pixel of `out` against `f` applied to the same (straight) pixel of `input`.
func expectPerPixel(
    _ out: [Float], _ input: [Float], tolerance: Double = 1e-5, _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation, _ f: (SIMD4<Double>) -> SIMD4<Double>
) {
    #expect(out.count == input.count, sourceLocation: sourceLocation)
    var worst = 0.0
    var at = 0
    for p in 0..<(min(out.count, input.count) / 4) {
        let e = f(pixel(input, p))
        let o = pixel(out, p)
        let diff = o - e
        let d = max(abs(diff.x), abs(diff.y), abs(diff.z), abs(diff.w))
        if !(d <= worst) {
            worst = d
            at = p
        }
    }
    #expect(worst <= tolerance, "max error \(worst) at pixel \(at) \(comment)", sourceLocation: sourceLocation)
}

/// The BT.709 luma of straight colour.
func luma(_ c: SIMD4<Double>) -> Double { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

/// The sRGB encoding curve (IEC 61966-2-1) in Double, mirrored for negatives.
func srgbEncoded(_ x: Double) -> Double {
    let m = abs(x)
    let e = m <= 0.0031308 ? 12.92 * m : 1.055 * Foundation.pow(m, 1 / 2.4) - 0.055
    return x < 0 ? -e : e
}

/// The sRGB decoding curve in Double, mirrored for negatives.
func srgbDecoded(_ x: Double) -> Double {
    let m = abs(x)
    let l = m <= 0.04045 ? m / 12.92 : Foundation.pow((m + 0.055) / 1.055, 2.4)
    return x < 0 ? -l : l
}

/// The project's 12 MP test photo, decoded once by djpeg (libjpeg-turbo), and crops of it.
enum TestPhoto {
    static let decoded = Mutex<PixelBuffer?>(nil)

    static func full() throws -> PixelBuffer {
        try decoded.withLock { cached in
            if let cached { return cached }
            let p = try NetPBM.decodeJPEG(TestData.root + "/livephoto/iphone6s_livephoto_train.jpg")
            cached = p
            return p
        }
    }

    /// An 8-bit sRGB crop.
    static func crop(x: Int = 1800, y: Int = 1200, width: Int, height: Int) throws -> PixelBuffer {
        try full().view(x: x, y: y, width: width, height: height).copy()
    }

    static var toolsAvailable: Bool { ExternalTool.isAvailable("djpeg") }
}

/// Runs ImageMagick's `convert` on `input` with `arguments` between input and output, returning its 8-bit result.
func imageMagick(_ input: PixelBuffer, _ arguments: [String]) throws -> PixelBuffer {
    let dir = try ExternalTool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try NetPBM.writePPM(input, to: dir + "/in.ppm")
    let r = try ExternalTool.run("convert", [dir + "/in.ppm"] + arguments + ["-depth", "8", dir + "/out.ppm"])
    guard r.status == 0 else { throw ToolFailure(description: "convert \(arguments) failed") }
    return try NetPBM.readPPM(dir + "/out.ppm")
}

/// Renders `image` to 8-bit sRGB with `context` (default: Lux's linear working space) and returns the largest
/// and mean absolute difference from `reference` in 8-bit levels over red, green and blue.
func levelDifference(
    _ image: Image, _ reference: PixelBuffer,
    context: RenderContext = RenderContext(options: RenderOptions(threadCount: 2))
) throws -> (max: Int, mean: Double) {
    let ours = try context.createBuffer(
        image, from: Rect(width: reference.width, height: reference.height), format: .rgba8, colorSpace: .sRGB
    ).components(as: UInt8.self)
    let theirs = reference.components(as: UInt8.self)
    var worst = 0
    var sum = 0
    for p in 0..<(reference.width * reference.height) {
        for c in 0..<3 {
            let d = abs(Int(ours[4 * p + c]) - Int(theirs[4 * p + c]))
            worst = max(worst, d)
            sum += d
        }
    }
    return (worst, Double(sum) / Double(3 * reference.width * reference.height))
}

/// A third-party tool that exited with an error.
struct ToolFailure: Error, CustomStringConvertible {
    let description: String
}
