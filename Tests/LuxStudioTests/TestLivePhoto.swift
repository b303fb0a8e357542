import Foundation
import LuxCodecs
import LuxLive
import LuxPixels

/// The studio tests' Live Photo: `IMG_0001.JPG` + `IMG_0001.MOV`, a grey 320 × 240 still and 30 frames of 160 × 120
/// at 30 fps (H.264) with a 440 Hz tone (AAC), the photo at 0.5 s.
enum TestLivePhoto {
    /// The pair's content identifier.
    static let identifier = "6A2B0E51-97C4-4C57-9E0B-3F1D2C3B4A59"

    /// The colour of movie frame `i`: each frame is one flat colour, so a key photo shows which frame it is.
    static func colour(_ i: Int) -> (UInt8, UInt8, UInt8) { (UInt8(8 * i), 100, UInt8(240 - 8 * i)) }

    /// The colour of movie frame `i` at column `x` when the frames are gradients: red is the column.
    static func gradient(_ i: Int, _ x: Int) -> (UInt8, UInt8, UInt8) { (UInt8(x), 100, 150) }

    /// Writes the pair into `folder`; with `gradient`, every frame is ``gradient(_:_:)`` instead of flat.
    static func write(in folder: URL, gradient: Bool = false) throws {
        var settings = QuickTimeWriter.Settings(
            video: .init(width: 160, height: 120, codec: .h264, quality: 0.95),
            audio: .init(sampleRate: 44_100, channelCount: 1, codec: .aac), synchronizesFile: false)
        settings.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
        let writer = try LivePhotoWriter(
            photoURL: folder.appendingPathComponent("IMG_0001.JPG"),
            movieURL: folder.appendingPathComponent("IMG_0001.MOV"), contentIdentifier: identifier, movie: settings)
        for i in 0..<30 {
            let frame = TestImages.pixels(width: 160, height: 120) { x, _ in
                let (r, g, b) = gradient ? Self.gradient(i, x) : colour(i)
                return SIMD4(r, g, b, 255)
            }
            try writer.appendVideoFrame(frame, at: MediaTime(value: Int64(i), timescale: 30))
        }
        try writer.appendAudio(
            (0..<44_100).map { Int16((9000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)).rounded()) })
        let still = TestImages.pixels(width: 320, height: 240) { _, _ in SIMD4(128, 128, 128, 255) }
        try writer.finish(
            photo: ImageFile(pixels: still, metadata: ImageMetadata(), format: .jpeg),
            photoTime: MediaTime(value: 1, timescale: 2))
    }
}
