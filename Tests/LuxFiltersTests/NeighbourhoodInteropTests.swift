import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// Neighbourhood filters against vips and ImageMagick on a crop of the test photo, computing on the encoded
/// 8-bit values as those tools do (no colour management), compared away from the borders.
@Suite(
    .enabled(
        if: ExternalTool.isAvailable("vips") && ExternalTool.isAvailable("convert") && TestPhoto.toolsAvailable,
        "needs vips, ImageMagick and djpeg"))
struct NeighbourhoodInteropTests {
    static let raw = RenderContext(
        options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat, threadCount: 2))

    static func photo() throws -> PixelBuffer { try TestPhoto.crop(x: 2000, y: 1400, width: 200, height: 150) }

    /// Runs vips with `arguments` (`IN` and `OUT` placeholders) and reads the 8-bit result.
    static func vips(_ input: PixelBuffer, _ arguments: [String], extra: [String: String] = [:]) throws -> PixelBuffer {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try NetPBM.writePPM(input, to: dir + "/in.ppm")
        for (name, text) in extra { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        let args = arguments.map {
            $0.replacingOccurrences(of: "IN", with: dir + "/in.ppm").replacingOccurrences(
                of: "OUT", with: dir + "/out.v"
            )
            .replacingOccurrences(of: "DIR", with: dir)
        }
        let r = try ExternalTool.run("vips", args)
        guard r.status == 0 else { throw ToolFailure(description: "vips \(arguments) failed") }
        let r2 = try ExternalTool.run("vips", ["cast", dir + "/out.v", dir + "/out8.v", "uchar"])
        guard r2.status == 0 else { throw ToolFailure(description: "vips cast failed") }
        let r3 = try ExternalTool.run("vips", ["copy", dir + "/out8.v", dir + "/out.ppm"])
        guard r3.status == 0 else { throw ToolFailure(description: "vips copy failed") }
        return try NetPBM.readPPM(dir + "/out.ppm")
    }

    /// Largest and mean level difference over the interior (a `margin`-pixel border excluded).
    static func interiorDifference(_ image: Image, _ reference: PixelBuffer, margin: Int) throws -> (
        max: Int, mean: Double
    ) {
        let w = reference.width
        let h = reference.height
        let inner = Rect(x: margin, y: margin, width: w - 2 * margin, height: h - 2 * margin)
        let ours = try raw.createBuffer(image, from: inner, format: .rgba8, colorSpace: nil).components(as: UInt8.self)
        let theirs = try reference.view(x: margin, y: margin, width: w - 2 * margin, height: h - 2 * margin).copy()
            .components(as: UInt8.self)
        var worst = 0
        var sum = 0
        for i in ours.indices where i % 4 != 3 {
            let d = abs(Int(ours[i]) - Int(theirs[i]))
            worst = max(worst, d)
            sum += d
        }
        return (worst, Double(sum) / Double(ours.count * 3 / 4))
    }

    @Test("MedianFilter equals vips rank 3 3 4 (the median) and convert -statistic median 3x3 exactly")
    func median() throws {
        let p = try Self.photo()
        let ours = Image(buffer: p).medianFilter()
        let v = try Self.interiorDifference(ours, Self.vips(p, ["rank", "IN", "OUT", "3", "3", "4"]), margin: 2)
        let m = try Self.interiorDifference(ours, imageMagick(p, ["-statistic", "median", "3x3"]), margin: 2)
        #expect(v.max == 0 && m.max == 0, "vips \(v), ImageMagick \(m)")
    }

    @Test("Convolution5X5 agrees with vips conv (float mask) within 1 level")
    func convolution() throws {
        let p = try Self.photo()
        let w: [Double] = [
            0, -1, -1, -1, 0, -1, 2, -4, 2, -1, -1, -4, 21, -4, -1, -1, 2, -4, 2, -1, 0, -1, -1, -1, 0,
        ]  // sums to 1, so alpha stays 1
        let mask =
            "5 5 1 0\n"
            + (0..<5).map { j in (0..<5).map { "\(w[j * 5 + $0])" }.joined(separator: " ") }.joined(separator: "\n")
            + "\n"
        let theirs = try Self.vips(
            p, ["conv", "IN", "OUT", "DIR/mask.mat", "--precision", "float"], extra: ["mask.mat": mask])
        let d = try Self.interiorDifference(Image(buffer: p).convolution5X5(weights: w), theirs, margin: 3)
        #expect(d.max <= 1, "\(d)")
    }

    @Test("MorphologyRectangleMaximum/Minimum equal convert -morphology Dilate/Erode Rectangle exactly")
    func morphology() throws {
        let p = try Self.photo()
        let dilate = try Self.interiorDifference(
            Image(buffer: p).morphologyRectangleMaximum(width: 7, height: 5),
            imageMagick(p, ["-morphology", "Dilate", "Rectangle:7x5"]), margin: 4)
        let erode = try Self.interiorDifference(
            Image(buffer: p).morphologyRectangleMinimum(width: 7, height: 5),
            imageMagick(p, ["-morphology", "Erode", "Rectangle:7x5"]), margin: 4)
        #expect(dilate.max == 0 && erode.max == 0, "dilate \(dilate), erode \(erode)")
    }

    @Test("UnsharpMask agrees with convert -unsharp 0x2+0.8+0 within 2 levels (linear working space)")
    func unsharp() throws {
        let p = try Self.photo()
        let d = try levelDifference(
            Image(buffer: p).unsharpMask(radius: 2, intensity: 0.8), imageMagick(p, ["-unsharp", "0x2+0.8+0"]))
        print("unsharp vs ImageMagick: \(d)")
        #expect(d.max <= 3 && d.mean < 0.5, "\(d)")
    }

    @Test("BoxBlur radius 2 agrees with vips conv of a 5×5 mask of ones")
    func boxBlur() throws {
        let p = try Self.photo()
        let mask = "5 5 25 0\n" + String(repeating: "1 1 1 1 1\n", count: 5)
        let theirs = try Self.vips(
            p, ["conv", "IN", "OUT", "DIR/mask.mat", "--precision", "float"], extra: ["mask.mat": mask])
        let d = try Self.interiorDifference(Image(buffer: p).boxBlur(radius: 2), theirs, margin: 3)
        #expect(d.max <= 1, "\(d)")
    }
}
