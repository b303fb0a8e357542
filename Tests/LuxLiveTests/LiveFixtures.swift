import Foundation
import LuxCodecs
import LuxColor
import LuxLive
import LuxPixels
import LuxTestSupport

/// Synthetic Live Photos for the tests: a still and a movie of the same scene (H.264 and AAC unless told otherwise),
/// written by ``LivePhotoWriter`` (the capture pipeline's assembly step).
enum LiveFixtures {
    /// The scene at `(u, v)` in 0…1: red follows x, green follows y, blue a soft texture.
    static func scene(_ u: Double, _ v: Double) -> (UInt8, UInt8, UInt8) {
        let r = 20 + 215 * u
        let g = 20 + 215 * v
        let b = 128 + 60 * sin(u * 37) * cos(v * 23)
        return (UInt8(r.rounded()), UInt8(g.rounded()), UInt8(b.rounded()))
    }

    /// A `width` × `height` picture of the scene, optionally seen through a window shifted by `shift` pixels.
    static func picture(
        width: Int, height: Int, shift: (Double, Double) = (0, 0), pattern: ((Int, Int) -> (UInt8, UInt8, UInt8))? = nil
    ) -> PixelBuffer {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c =
                    pattern?(x, y)
                    ?? scene((Double(x) + shift.0) / Double(width), (Double(y) + shift.1) / Double(height))
                let o = 4 * (y * width + x)
                (rgba[o], rgba[o + 1], rgba[o + 2]) = c
            }
        }
        return PixelBuffer(width: width, height: height, format: .rgba8, components: rgba, colorSpace: .sRGB)
    }

    static let identifier = "0E5A38F2-2B7C-4B71-8C3B-7D1F1A2B3C4D"

    /// Writes `IMG_0001.JPG` + `IMG_0001.MOV` into `dir`: a 400×300 still and `frames` 144×108 frames at 30 fps with
    /// a 440 Hz tone, the photo at `photoTime` (default: the middle).
    @discardableResult
    static func pair(
        in dir: URL, name: String = "IMG_0001", frames: Int = 30, photoSize: (Int, Int) = (400, 300),
        frameSize: (Int, Int) = (144, 108), audio: Bool = true, photoTime: MediaTime? = nil,
        framePicture: ((Int) -> PixelBuffer)? = nil, stillPicture: PixelBuffer? = nil, codec: VideoCodec = .h264,
        audioCodec: QuickTimeWriter.AudioCodec = .aac
    ) throws -> LivePhoto {
        var settings = QuickTimeWriter.Settings(
            video: .init(width: frameSize.0, height: frameSize.1, codec: codec, quality: 0.95),
            audio: audio ? .init(sampleRate: 44_100, channelCount: 1, codec: audioCodec) : nil,
            metadata: [MovieMetadataItem(key: .author, value: "Brad Ford")], synchronizesFile: false)
        settings.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
        let writer = try LivePhotoWriter(
            photoURL: dir.appendingPathComponent(name + ".JPG"), movieURL: dir.appendingPathComponent(name + ".MOV"),
            contentIdentifier: identifier, movie: settings)
        for i in 0..<frames {
            let frame = framePicture?(i) ?? picture(width: frameSize.0, height: frameSize.1)
            try writer.appendVideoFrame(frame, at: MediaTime(value: Int64(i), timescale: 30))
        }
        if audio { try writer.appendAudio(tone(frames: frames * 1470)) }
        var metadata = ImageMetadata()
        metadata.exif.make = "Lux"
        metadata.exif.model = "Simulated Camera"
        let still = ImageFile(
            pixels: stillPicture ?? picture(width: photoSize.0, height: photoSize.1), metadata: metadata, format: .jpeg)
        return try writer.finish(
            photo: still, photoTime: photoTime ?? MediaTime(value: Int64(frames), timescale: 60),
            options: EncodingOptions(quality: 0.95, chromaSubsampling: .none, synchronizesFile: false))
    }

    static func tone(frames: Int) -> [Int16] {
        (0..<frames).map { Int16((9000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)).rounded()) }
    }

    static func folder() throws -> URL { try ExternalTool.temporaryFolder("lux-live") }

    /// The decoded frames of a movie.
    static func frames(_ url: URL) throws -> [PixelBuffer] {
        let reader = try VideoFrameReader(movie: try QuickTimeMovie(contentsOf: url))
        var frames: [PixelBuffer] = []
        while let f = try reader.next() { frames.append(f.pixels) }
        return frames
    }

    /// The root mean square of 16-bit samples.
    static func rms(_ samples: [Int16]) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
    }

    /// Pixel (x, y) of an `.rgba8` buffer.
    static func rgb(_ b: PixelBuffer, _ x: Int, _ y: Int) -> SIMD3<Double> {
        let c = b.components(as: UInt8.self)
        let o = 4 * (y * b.width + x)
        return SIMD3(Double(c[o]), Double(c[o + 1]), Double(c[o + 2]))
    }

    /// Mean absolute difference (0…255) of two same-size `.rgba8` buffers' RGB.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let ca = a.components(as: UInt8.self)
        let cb = b.components(as: UInt8.self)
        var sum = 0.0
        var n = 0
        for i in stride(from: 0, to: min(ca.count, cb.count), by: 4) {
            for k in 0..<3 { sum += abs(Double(ca[i + k]) - Double(cb[i + k])) }
            n += 3
        }
        return sum / Double(max(n, 1))
    }

    /// Where two same-size `.rgba8` buffers differ: how many pixels, their bounding box and the largest difference
    /// (a race shows as whole frames or bands, stale memory as edges or blocks, encoder noise as small spread values).
    static func differences(_ a: PixelBuffer, _ b: PixelBuffer) -> String {
        guard a.width == b.width, a.height == b.height else {
            return "\(a.width)×\(a.height) against \(b.width)×\(b.height)"
        }
        let ca = a.components(as: UInt8.self)
        let cb = b.components(as: UInt8.self)
        var count = 0
        var largest = 0
        var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
        for y in 0..<a.height {
            for x in 0..<a.width {
                let o = 4 * (y * a.width + x)
                let d = (0..<4).map { abs(Int(ca[o + $0]) - Int(cb[o + $0])) }.max() ?? 0
                guard d > 0 else { continue }
                count += 1
                largest = max(largest, d)
                box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
            }
        }
        guard count > 0 else { return "identical" }
        return
            "\(count) pixels differ (up to \(largest) levels) in x \(box.minX)…\(box.maxX), y \(box.minY)…\(box.maxY) "
            + "of \(a.width)×\(a.height); mean |d| \(meanDifference(a, b))"
    }

    /// Which compressed video samples of two movies differ (index, sizes, first differing byte), telling a
    /// difference in what the encoder was given (or in the file) from one in decoding.
    static func sampleDifferences(_ a: URL, _ b: URL) -> String {
        do {
            let ma = try QuickTimeMovie(contentsOf: a)
            let mb = try QuickTimeMovie(contentsOf: b)
            guard let ta = ma.videoTrack, let tb = mb.videoTrack else { return "no video track" }
            let sa = try ma.samples(of: ta)
            let sb = try mb.samples(of: tb)
            var out: [String] = []
            for (x, y) in zip(sa, sb) {
                let da = try ma.sampleData(x)
                let db = try mb.sampleData(y)
                guard da != db else { continue }
                let first =
                    zip(da, db).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(da.count, db.count)
                out.append("sample \(x.index): \(da.count) vs \(db.count) bytes, first difference at byte \(first)")
            }
            return out.isEmpty ? "identical (\(sa.count) vs \(sb.count) samples)" : out.joined(separator: "; ")
        } catch {
            return "unreadable: \(error)"
        }
    }

    /// ffprobe's streams and format as JSON.
    static func probe(_ path: String) throws -> (streams: [[String: Any]], format: [String: Any]) {
        let out = try ExternalTool.capture(
            "ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: out.stdout) as? [String: Any] ?? [:]
        return (json["streams"] as? [[String: Any]] ?? [], json["format"] as? [String: Any] ?? [:])
    }

    /// exiftool `-j -n` as a dictionary.
    static func exiftool(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        let out = try ExternalTool.capture("exiftool", ["-j", "-n"] + extra + [path])
        return (try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]])?.first ?? [:]
    }
}
