import Foundation
import Lux
import Testing

/// The README's Swift tour, run on the Canon EOS 550D DNG of the test data.
@Suite struct ReadmeSnippets {
    @Test func tour() async throws {
        let folder = try temporaryFolder()
        try copy("raw/canon_eos550d_magiclantern_14bit.dng", into: folder, as: "canon.dng")

        // Colour conversion, exact in Double or fast over rows.
        let toP3 = try ColorConverter(from: .sRGB, to: .displayP3)
        let red = toP3.convert(SIMD3<Double>(1, 0, 0))  // ≈ (0.9175, 0.2003, 0.1386)

        // Develop a raw file: nothing is computed until a render, which streams strips into the encoder.
        var developer = try RAWDeveloper(url: folder.appending(path: "canon.dng"))
        developer.exposure = 0.3
        let context = RenderContext()
        try context.write(try developer.outputImage, to: folder.appending(path: "canon.jpg"), colorSpace: .displayP3)

        // Edit: filters build a recipe; write renders it tile by tile on all cores.
        let photo = try Image(contentsOf: folder.appending(path: "canon.jpg"))
        let edited = photo.sepiaTone(intensity: 0.8).gaussianBlur(radius: 4).cropped(to: photo.extent)
        try context.write(edited, to: folder.appending(path: "sepia.tif"), pixelFormat: .rgba16, colorSpace: .displayP3)

        // Capture: a session on the simulated camera; each request's events arrive in order as an AsyncSequence.
        let camera = SimulatedCamera(scene: .stillLife())
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.setSessionPreset(.photo)
        try session.addInput(DeviceInput(camera: camera))
        try session.addOutput(output)
        try await session.startRunning()
        for try await event in try output.capturePhoto(PhotoSettings()) {
            if case .didFinishProcessingPhoto(let photo) = event {
                try Data(photo.fileDataRepresentation()).write(to: folder.appending(path: "IMG_0001.jpg"))
            }
        }

        // Published: sRGB red in Display P3 is (0.9175, 0.2003, 0.1386).
        #expect(abs(red.x - 0.9175) < 1e-4 && abs(red.y - 0.2003) < 1e-4 && abs(red.z - 0.1386) < 1e-4)
        // exiftool on the written files: the DNG's 1734 × 1156 active area, a Display P3 profile, 16-bit TIFF.
        let jpeg = try ImageFile.info(url: folder.appending(path: "canon.jpg"))
        #expect(jpeg.width == 1734 && jpeg.height == 1156 && jpeg.colorSpace?.name == "Display P3")
        let tiff = try ImageFile.info(url: folder.appending(path: "sepia.tif"))
        #expect(tiff.width == 1734 && tiff.bitsPerSample == 16)
        #expect(try ImageFile.info(url: folder.appending(path: "IMG_0001.jpg")).width == 3024)  // 3/4 of 4032
    }
}
