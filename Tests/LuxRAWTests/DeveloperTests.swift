import Foundation
import LuxCodecs
import LuxColor
import LuxRender
import LuxTestSupport
import Testing

@testable import LuxPixels
@testable import LuxRAW

@Suite struct DeveloperBehaviour {
    /// The metadata-only files of the test data (Tests/Data/SOURCES.md: header-only, stripped or cut short; darktable
    /// reports them as truncated) and the error each must give: `noPixelData` for every one, DNGs through LuxCodecs'
    /// decoder and the other camera raws through LibRaw.
    static let metadataOnlyFiles: [(String, String)] = [
        ("apple_iphone12pro_proraw_HEADERONLY.dng", "noPixelData"),
        ("canon_350d_adobe_dng_STRIPPED.dng", "noPixelData"),
        ("leica_m10_TRUNCATED.dng", "noPixelData"), ("canon_350d_STRIPPED.cr2", "noPixelData"),
        ("nikon_d70_STRIPPED.nef", "noPixelData"), ("fujifilm_s5pro_STRIPPED.raf", "noPixelData"),
        ("sony_zv-e10_TRUNCATED.arw", "noPixelData"),
    ]

    @Test(
        "header-only, stripped and truncated raws throw a clear typed error instead of developing zeros",
        arguments: metadataOnlyFiles.map(\.0))
    func metadataOnly(_ name: String) throws {
        let expected = try #require(Self.metadataOnlyFiles.first { $0.0 == name }?.1)
        let url = URL(fileURLWithPath: TestFiles.raw + "/metadata-only/" + name)
        let error = #expect(throws: RAWError.self) { _ = try RAWDeveloper(url: url) }
        switch error {
        case .noPixelData(let why)?:
            // LuxCodecs' DNGReaderTests pin each file's exact reason; here the developer must pass it on.
            #expect(expected == "noPixelData" && !why.isEmpty, "\(why)")
        case .decoding(let e)?:
            #expect(expected != "noPixelData" && e.description.contains(expected), "\(e)")
        default:
            Issue.record("\(name): \(String(describing: error))")
        }
        // The in-memory path says the same, naming "the data" where the file's name is unknown.
        let bytes = [UInt8](try TestFiles.data(url.path))
        if let error {
            let inMemory = #expect(throws: RAWError.self) { _ = try RAWDeveloper(data: bytes) }
            #expect(inMemory.map { "\($0)".replacingOccurrences(of: "the data", with: name) } == "\(error)")
        }
    }

    @Test("a JPEG is refused as not raw")
    func notRaw() throws {
        let jpeg = try JPEG.encode(PixelBuffer(width: 8, height: 8, format: .rgba8))
        #expect(throws: RAWError.self) { _ = try RAWDeveloper(data: jpeg) }
    }

    @Test("parameters outside their documented ranges throw and name the parameter")
    func ranges() throws {
        var d = try RAWDeveloper(
            rawImage: SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65))
        d.exposure = 9
        #expect(throws: RAWError.invalidParameter(name: "exposure", value: 9, allowed: -5...5)) {
            _ = try d.outputImage
        }
        d.exposure = 0
        d.boostAmount = -1
        #expect(throws: RAWError.self) { _ = try d.outputImage }
    }

    @Test("adjustments round-trip through JSON and re-applied render the same pixels; NaN is rejected")
    func adjustments() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        var d = try RAWDeveloper(rawImage: raw)
        d.exposure = 0.4
        d.neutralTemperature = 5500
        d.vibranceAmount = 0.3
        d.orientation = .right
        let json = try JSONEncoder().encode(d.adjustments)
        var again = try RAWDeveloper(rawImage: raw)
        #expect(again.adjustments != d.adjustments)
        again.adjustments = try JSONDecoder().decode(RAWDeveloper.Adjustments.self, from: json)
        #expect(again.adjustments == d.adjustments)
        let context = RenderContext()
        let a = try context.createBuffer(try d.outputImage, format: .rgba16).components(as: UInt16.self)
        let b = try context.createBuffer(try again.outputImage, format: .rgba16).components(as: UInt16.self)
        #expect(a == b)
        again.contrastAmount = .nan
        #expect(throws: RAWError.self) { try again.validate() }
    }

    @Test("a developer opened from a file reads uncompressed samples in place and renders what the copy renders")
    func mappedSamples() throws {
        let path = try SyntheticDNG.uncompressed.path
        var fromFile = try RAWDeveloper(url: URL(fileURLWithPath: path))
        var fromMemory = try RAWDeveloper(data: [UInt8](try TestFiles.data(path)))
        #expect(fromFile.rawImage.pixels.storage.isReadOnly)
        #expect(!fromMemory.rawImage.pixels.storage.isReadOnly)
        // Half size keeps the debug-build render short; it reads every photosite all the same.
        fromFile.scaleFactor = 0.5
        fromMemory.scaleFactor = 0.5
        let context = RenderContext()
        let a = try context.createBuffer(try fromFile.outputImage, format: .rgba16).components(as: UInt16.self)
        let b = try context.createBuffer(try fromMemory.outputImage, format: .rgba16).components(as: UInt16.self)
        let same = a == b
        #expect(same)
    }

    @Test("defaults come from the file: noise reduction grows with the NoiseProfile, BaselineExposure is read")
    func defaultsFromFile() throws {
        var raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        raw.properties.noiseProfile = NoiseProfile(planes: [.init(scale: 2e-5, offset: 4.5e-7)])
        raw.properties.baselineExposure = 0.35
        let quiet = try RAWDeveloper(rawImage: raw)
        raw.properties.noiseProfile = NoiseProfile(planes: [.init(scale: 2e-3, offset: 4.5e-5)])
        let noisy = try RAWDeveloper(rawImage: raw)
        #expect(quiet.baselineExposure == 0.35)
        #expect(noisy.luminanceNoiseReductionAmount > quiet.luminanceNoiseReductionAmount)
        #expect(noisy.colorNoiseReductionAmount > quiet.colorNoiseReductionAmount)
    }

    @Test("renders are bit-identical for any thread count and tile size")
    func deterministic() throws {
        var raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        raw.properties.noiseProfile = NoiseProfile(planes: [.init(scale: 2e-4, offset: 1e-6)])
        var d = try RAWDeveloper(rawImage: raw)
        d.sharpnessAmount = 1
        d.contrastAmount = 0.3
        d.vibranceAmount = 0.2
        let image = try d.outputImage
        let one = try RenderContext(options: RenderOptions(threadCount: 1, tileSize: 64)).createBuffer(
            image, format: .rgba16)
        let many = try RenderContext(options: RenderOptions(threadCount: 2, tileSize: 512)).createBuffer(
            image, format: .rgba16)
        #expect(one.components(as: UInt16.self) == many.components(as: UInt16.self))
    }

    @Test(
        "orientation, scale factor and draft mode give the documented output sizes", arguments: Orientation.allCases)
    func geometry(_ orientation: Orientation) throws {
        var d = try RAWDeveloper(
            rawImage: SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65))
        d.orientation = orientation
        let image = try d.outputImage
        let (w, h) = orientation.swapsDimensions ? (160.0, 240.0) : (240.0, 160.0)
        #expect(image.extent == Rect(x: 0, y: 0, width: w, height: h))
        d.scaleFactor = 0.5
        #expect(try d.outputImage.extent == Rect(x: 0, y: 0, width: w / 2, height: h / 2))
        d.scaleFactor = 0.3  // 72 × 48: binned by 2, then area-averaged
        #expect(try d.outputImage.extent == Rect(x: 0, y: 0, width: w * 0.3, height: h * 0.3))
        d.scaleFactor = 1
        d.isDraftModeEnabled = true  // Core Image's draft: the same size
        #expect(try d.outputImage.extent == Rect(x: 0, y: 0, width: w, height: h))
        d.version = .v1  // v1's draft was the half-size image
        #expect(try d.outputImage.extent == Rect(x: 0, y: 0, width: w / 2, height: h / 2))
        d.version = .latest
        // The white patch (19, bottom left when upright) stays where the orientation puts it.
        d.isDraftModeEnabled = false
        d.boostAmount = 0
        let out = try RenderContext().createBuffer(
            try d.outputImage, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        let corner: (Double, Double)
        switch orientation {
        case .up: corner = (20, 140)
        case .upMirrored: corner = (220, 140)
        case .down: corner = (220, 20)
        case .downMirrored: corner = (20, 20)
        case .leftMirrored: corner = (140, 20)
        case .right: corner = (20, 20)
        case .rightMirrored: corner = (20, 220)
        case .left: corner = (140, 220)
        }
        let white = SyntheticRaw.mean(out, Rect(x: corner.0 - 4, y: corner.1 - 4, width: 8, height: 8))
        #expect(white.min() > 0.3, "\(orientation): \(white)")
    }
}
