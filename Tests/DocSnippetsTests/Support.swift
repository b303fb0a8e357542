import Foundation
import Lux
import LuxTestSupport

// Fixtures the snippets read. Snippets are copied verbatim from the documentation (DocConsistencyTests checks
// that); what they take as given — a folder, a decoded photo, a camera — is made here.

/// A fresh, empty folder under the temporary directory.
func temporaryFolder(_ name: String = #function) throws -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory.appending(path: "lux-docs-\(safe)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A file of the committed test data (`Tests/Data/…`) as a URL.
func testData(_ path: String) -> URL { URL(fileURLWithPath: TestData.root + "/" + path) }

/// Copies a test-data file into `folder` under another name.
@discardableResult
func copy(_ path: String, into folder: URL, as name: String) throws -> URL {
    let destination = folder.appending(path: name)
    try FileManager.default.copyItem(at: testData(path), to: destination)
    return destination
}

/// A smooth sRGB test picture: red ramps left to right, green top to bottom, blue constant.
func gradient(width: Int = 96, height: Int = 64, format: PixelFormat = .rgbaFloat) -> PixelBuffer {
    // Written as one array (pixel by pixel through setPixel took 40 s for the 1440 × 1080 frames in debug builds).
    var components = [Float](repeating: 0, count: 4 * width * height)
    components.withUnsafeMutableBufferPointer { c in
        for y in 0..<height {
            for x in 0..<width {
                let i = 4 * (y * width + x)
                c[i] = Float(x) / Float(width - 1)
                c[i + 1] = Float(y) / Float(height - 1)
                c[i + 2] = 0.4
                c[i + 3] = 1
            }
        }
    }
    let buffer = PixelBuffer(
        width: width, height: height, format: .rgbaFloat, components: components, colorSpace: .sRGB)
    return format == .rgbaFloat ? buffer : buffer.converted(to: format)
}

/// The default phone sensor with 320 × 240 larger photosites (same field of view and per-pixel noise), so
/// captures run in seconds in debug builds.
func smallSensor() -> SensorModel {
    var sensor = SensorModel.phone12MP
    sensor.pixelPitch = sensor.sensorWidth / 320
    sensor.width = 320
    sensor.height = 240
    return sensor
}

/// A simulated camera with ``smallSensor()``.
func smallCamera(scene: Scene = .stillLife(), seed: UInt64 = 1) -> SimulatedCamera {
    SimulatedCamera(scene: scene, configuration: .init(sensor: smallSensor(), seed: seed))
}

/// Writes `bytes` to `folder/name`.
func save(_ bytes: [UInt8], to folder: URL, as name: String) throws {
    try Data(bytes).write(to: folder.appending(path: name))
}

/// An H.264 + AAC Live Photo written with LuxLive's `LivePhotoWriter`: a 400 × 300 still and 30 frames of
/// 144 × 108 at 30 fps with a 440 Hz tone, the still at 0.5 s.
func makeLivePhoto(in folder: URL, name: String = "IMG_0100") throws -> LivePhoto {
    let writer = try LivePhotoWriter(
        photoURL: folder.appending(path: name + ".JPG"), movieURL: folder.appending(path: name + ".MOV"),
        movie: QuickTimeWriter.Settings(
            video: .init(width: 144, height: 108), audio: .init(sampleRate: 44_100, channelCount: 1)))
    let frame = gradient(width: 144, height: 108, format: .rgba8)
    for i in 0..<30 { try writer.appendVideoFrame(frame, at: MediaTime(value: Int64(i), timescale: 30)) }
    try writer.appendAudio(
        (0..<44_100).map { Int16((8000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)).rounded()) })
    let still = ImageFile(pixels: gradient(width: 400, height: 300, format: .rgba8), format: .jpeg)
    return try writer.finish(photo: still, photoTime: MediaTime(value: 1, timescale: 2))
}
