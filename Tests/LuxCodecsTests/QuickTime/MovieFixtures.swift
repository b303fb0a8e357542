import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport

@testable import LuxCodecs

/// Synthetic movies for the QuickTime tests: frames with a moving square, a sine tone, and the probes that read
/// them back with FFmpeg and exiftool.
enum MovieFixtures {
    /// Frame `i`: a gradient with a white 8×8 square moving 2 pixels right per frame.
    static func frame(_ i: Int, width: Int = 64, height: Int = 48) -> PixelBuffer {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = 4 * (y * width + x)
                let inSquare = (x - 4 - 2 * i) >= 0 && (x - 4 - 2 * i) < 8 && y >= 20 && y < 28
                rgba[o] = inSquare ? 250 : UInt8(40 + x * 150 / width)
                rgba[o + 1] = inSquare ? 250 : UInt8(30 + y * 150 / height)
                rgba[o + 2] = inSquare ? 250 : 90
            }
        }
        return PixelBuffer(width: width, height: height, format: .rgba8, components: rgba, colorSpace: .sRGB)
    }

    /// A 440 Hz tone, `channels` interleaved (channel c at amplitude 8000·(c+1)).
    static func tone(frames: Int, rate: Int = 44_100, channels: Int = 1) -> [Int16] {
        var out: [Int16] = []
        out.reserveCapacity(frames * channels)
        for n in 0..<frames {
            let v = sin(2 * Double.pi * 440 * Double(n) / Double(rate))
            for c in 0..<channels { out.append(Int16((8000 * Double(c + 1) * v).rounded())) }
        }
        return out
    }

    static let identifier = "5B4D0C8E-1C2A-4F8E-9A57-0D2C1F3E4B6A"

    /// Writes a movie of `frames` frames at 30 fps with one second of audio per 30 frames, the content identifier,
    /// an author and the still-image time at `stillTime` (Motion-JPEG and PCM unless told otherwise).
    @discardableResult
    static func write(
        to url: URL, frames: Int = 30, width: Int = 64, height: Int = 48, audio: Bool = true, channels: Int = 1,
        stillTime: MediaTime? = MediaTime(value: 1, timescale: 2), fastStart: Bool = false,
        orientation: Orientation = .up, codec: VideoCodec = .motionJPEG,
        audioCodec: QuickTimeWriter.AudioCodec = .pcm
    ) throws -> [Int16] {
        var settings = QuickTimeWriter.Settings(
            video: .init(width: width, height: height, codec: codec, quality: 0.92, orientation: orientation),
            audio: audio ? .init(sampleRate: 44_100, channelCount: channels, codec: audioCodec) : nil,
            metadata: [
                MovieMetadataItem(key: .contentIdentifier, value: .string(identifier)),
                MovieMetadataItem(key: .author, value: "Brad Ford"),
            ], fastStart: fastStart)
        settings.synchronizesFile = false
        let writer = try QuickTimeWriter(writingTo: url, settings: settings)
        let samples = tone(frames: frames * 44_100 / 30, channels: channels)
        for i in 0..<frames {
            try writer.appendVideoFrame(
                frame(i, width: width, height: height), at: MediaTime(value: Int64(i), timescale: 30))
            // Interleave audio in per-frame pieces, as a capture would.
            if audio {
                let per = 44_100 / 30 * channels
                try writer.appendAudio(Array(samples[(i * per)..<((i + 1) * per)]))
            }
        }
        if let stillTime { try writer.setStillImageTime(stillTime) }
        try writer.finish()
        return audio ? samples : []
    }

    /// ffprobe's streams and format as JSON.
    static func probe(_ path: String) throws -> (streams: [[String: Any]], format: [String: Any]) {
        let out = try ExternalTool.capture(
            "ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: out.stdout) as? [String: Any] ?? [:]
        return (json["streams"] as? [[String: Any]] ?? [], json["format"] as? [String: Any] ?? [:])
    }

    static func double(_ v: Any?) -> Double? {
        if let s = v as? String { return Double(s) }
        if let n = v as? NSNumber { return n.doubleValue }
        return nil
    }

    static func temporaryFolder() throws -> URL { try ExternalTool.temporaryFolder("lux-mov") }
}
