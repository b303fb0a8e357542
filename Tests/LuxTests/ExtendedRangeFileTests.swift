import Foundation
import Lux
import LuxTestSupport
import Testing

/// Extended-range data (values beyond 0…1, the unclipped half-float pipeline) written to floating-point files comes
/// back as it was: a chain split by a file equals the same chain in one render.
@Suite struct ExtendedRangeFileTests {
    /// A bright 8-bit sRGB picture: ExposureAdjust +1 EV pushes much of it past 1.0.
    static func picture() -> PixelBuffer {
        FileRenderingTests.picture(width: 160, height: 120)
    }

    @Test(
        "ExposureAdjust | SepiaTone through a float or half TIFF in an extended space equals the fused chain",
        arguments: [
            (PixelFormat.rgbaFloat, ColorSpace.extendedSRGB), (.rgbaHalf, .extendedLinearSRGB),
            (.rgbaFloat, .extendedLinearDisplayP3),
        ])
    func splitChainMatchesFusedChain(format: PixelFormat, space: ColorSpace) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Image(buffer: Self.picture())
        let context = RenderContext()
        let exposed = source.exposureAdjust(ev: 1)
        var fused = PixelBuffer(width: 160, height: 120, format: .rgba8)
        try context.render(exposed.sepiaTone(intensity: 1), to: &fused, bounds: exposed.extent, colorSpace: .sRGB)

        let middle = dir.appendingPathComponent("exposed.tif")
        try context.write(exposed, to: middle, pixelFormat: format, colorSpace: space)
        let stored = try ImageFile.read(url: middle).pixels
        // The file really holds values past 1.0 (in the space it was written in) …
        let largest = stored.converted(to: .rgbaFloat).components(as: Float.self).max() ?? 0
        #expect(largest > 1.05, "largest stored value \(largest)")
        // … and reading it back keeps them: the split chain equals the fused one.
        let reread = try Image(contentsOf: middle)
        var split = PixelBuffer(width: 160, height: 120, format: .rgba8)
        try context.render(reread.sepiaTone(intensity: 1), to: &split, bounds: reread.extent, colorSpace: .sRGB)
        let a = fused.components(as: UInt8.self)
        let b = split.components(as: UInt8.self)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(worst <= 1, "largest difference \(worst) levels")
    }
}
