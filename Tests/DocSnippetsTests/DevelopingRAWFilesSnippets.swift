import Foundation
import Lux
import Testing

/// The snippets of Sources/Lux/Documentation.docc/DevelopingRAWFiles.md, in order, on a real camera's DNG.
@Suite struct DevelopingRAWFilesSnippets {
    @Test func theWholeArticle() throws {
        let folder = try temporaryFolder()
        try copy("raw/canon_eos550d_magiclantern_14bit.dng", into: folder, as: "IMG_0001.dng")

        var developer = try RAWDeveloper(url: folder.appending(path: "IMG_0001.dng"))
        print(developer.nativeSize, developer.asShotWhite)  // sensor size; the file's white as temperature and tint
        developer.exposure = 0.3  // EV on top of the file's BaselineExposure
        developer.neutralTemperature = 5200  // white balance; the as-shot value is the default
        developer.luminanceNoiseReductionAmount = 0.4
        let image = try developer.outputImage  // oriented, cropped, extended range: a recipe

        // exiftool: 1888 × 1182 stored (the active area is smaller), AsShotNeutral 1 2.477 1.462.
        #expect(developer.nativeSize.width > 1700 && developer.nativeSize.width <= 1888)
        #expect((3000...8000).contains(developer.asShotWhite.temperature))
        #expect(image.extent.width > 1700 && image.extent.origin == .zero)

        developer.exposure = 7
        do {
            _ = try developer.outputImage
        } catch {
            if case .invalidParameter(let name, let value, let allowed) = error {
                print(name, value, allowed)  // exposure 7.0 -5.0...5.0
            }
        }
        developer.exposure = 0.3
        try developer.setNeutral(sampling: Rect(x: 900, y: 500, width: 40, height: 40))

        #expect(developer.exposure == 0.3)
        #expect(abs(developer.neutralTemperature - 5200) > 1)  // the grey patch moved the white

        let toned = ToneCurve(boost: 0.5).apply(to: image)  // half the base curve on a developed image

        #expect(toned.extent == image.extent)

        let xyzToCamera = smallCamera().calibration.colorMatrix2  // the simulated sensor's, under D65
        var bayerFrame = PixelBuffer(width: 4032, height: 3024, format: .bayer14(.rggb))
        bayerFrame.withUnsafeMutablePlane(0) { p in
            for y in 0..<3024 {
                let row = (p.baseAddress + y * p.bytesPerRow).assumingMemoryBound(to: UInt16.self)
                for x in 0..<4032 { row[x] = 512 + UInt16((x / 8 + y / 8) % 2) * 3000 }
            }
        }
        let fastPreview = true

        var properties = RawProperties(
            width: 4032, height: 3024, cfa: .rggb, bitsPerSample: 14,
            blackLevel: BlackLevel(512), whiteLevel: 16383)
        properties.color = ColorCalibration(
            colorMatrix1: xyzToCamera, calibrationIlluminant1: .d65,
            asShotNeutral: [0.52, 1, 0.71])
        properties.noiseProfile = NoiseProfile(planes: [.init(scale: 2e-4, offset: 1e-6)])
        var fromSensor = try RAWDeveloper(pixels: bayerFrame, properties: properties)
        fromSensor.scaleFactor = fastPreview ? 0.5 : 1  // half size: 2×2 quads averaged, no interpolation
        let preview = try fromSensor.outputImage

        #expect(preview.extent.width == 2016)  // half of 4032

        let context = RenderContext(options: RenderOptions(tileSize: 256))
        let crop = try context.createBuffer(
            image, from: Rect(x: 0, y: 0, width: 256, height: 256),
            format: .rgbaHalf, colorSpace: .extendedLinearSRGB)
        try context.write(image, to: folder.appending(path: "IMG_0001.jpg"), colorSpace: .displayP3)
        try context.write(
            image, to: folder.appending(path: "IMG_0001.tif"), pixelFormat: .rgba16, colorSpace: .displayP3)

        #expect(crop.width == 256 && crop.colorSpace == .extendedLinearSRGB)
        let jpeg = try ImageFile.info(url: folder.appending(path: "IMG_0001.jpg"))
        #expect(jpeg.width == Int(image.extent.width) && jpeg.colorSpace?.name == "Display P3")
        let tiff = try ImageFile.info(url: folder.appending(path: "IMG_0001.tif"))
        #expect(tiff.bitsPerSample == 16)

        let saved = try JSONEncoder().encode(developer.adjustments)
        var again = try RAWDeveloper(url: folder.appending(path: "IMG_0001.dng"))
        again.adjustments = try JSONDecoder().decode(RAWDeveloper.Adjustments.self, from: saved)

        #expect(again.adjustments == developer.adjustments)
    }
}
