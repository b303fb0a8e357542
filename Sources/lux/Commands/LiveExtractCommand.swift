import ArgumentParser
import Foundation
import Lux

/// `lux live extract PAIR -o DIR`: the movie's frames, the frame at the photo time, and the audio, as files.
struct LiveExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write a Live Photo movie's frames, its frame at the photo time, and its audio (WAV) as files.",
        discussion: """
            Frames are decoded whatever the movie holds: H.264 and HEVC (an iPhone's) through FFmpeg's libraries, \
            Motion-JPEG (Lux's older movies); sound likewise (AAC or PCM). Without --frames, --photo-frame or \
            --audio, everything is written.

            Examples:
              lux live extract IMG_0001.JPG -o parts
              lux live extract IMG_0001.MOV -o parts --photo-frame --format png
            """)

    @Argument(help: "The still or the movie of the pair.", completion: .file())
    var pair: String

    @Option(
        name: [.customShort("o"), .customLong("out")], help: "The output folder (created if missing).",
        completion: .directory)
    var out: String

    @Flag(help: "Every frame, as NAME-frame-NNN.jpg (or .png).")
    var frames = false

    @Flag(help: "The frame showing at the photo time, as NAME-photo-frame.jpg.")
    var photoFrame = false

    @Flag(help: "The audio as NAME.wav.")
    var audio = false

    @Option(help: "The image format of frames: jpg, png, tiff or heic.")
    var format: FileFormatArgument = .jpg

    @OptionGroup var overwriteOptions: OverwriteOptions

    func run() throws {
        let all = !frames && !photoFrame && !audio
        let folder = URL(fileURLWithPath: out)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let live = try LivePhoto(pairing: URL(fileURLWithPath: pair))
            let stem = live.movieURL.deletingPathExtension().lastPathComponent
            let movie = try QuickTimeMovie(contentsOf: live.movieURL)
            var written: [String] = []
            if all || frames || photoFrame {
                guard let track = movie.videoTrack else {
                    throw CLIError("\(live.movieURL.path): the movie has no video")
                }
                if track.canDecodeFrames {
                    written += try writeFrames(
                        movie, track, photoTime: live.photoTime, stem: stem, folder: folder, all: all)
                } else if all {
                    written.append("no frames (\(track.codecName) video cannot be decoded)")
                } else {
                    throw LivePhotoError.movieNotDecodable(live.movieURL, codec: track.codecName).cliError
                }
            }
            if all || audio {
                if movie.audioTrack == nil {
                    if audio { throw CLIError("\(live.movieURL.path): the movie has no audio track") }
                } else {
                    let url = folder.appendingPathComponent("\(stem).wav")
                    try overwriteOptions.check(url.path)
                    let samples = try movie.audioSamples()
                    try samples.writeWAV(to: url)
                    written.append(
                        url.lastPathComponent
                            + String(
                                format: " (%.3f s, %d Hz, %d ch)", samples.duration.seconds, samples.sampleRate,
                                samples.channelCount))
                }
            }
            print("\(folder.path): " + written.joined(separator: ", "))
        } catch let e as LivePhotoError {
            throw e.cliError
        } catch let e as CodecError {
            throw CLIError(e, file: pair)
        }
    }

    private func writeFrames(
        _ movie: QuickTimeMovie, _ track: MovieTrack, photoTime: MediaTime, stem: String, folder: URL, all: Bool
    ) throws -> [String] {
        var written: [String] = []
        let samples = try movie.samples(of: track)
        let names = samples.indices.map {
            folder.appendingPathComponent(String(format: "%@-frame-%03d.%@", stem, $0 + 1, format.rawValue))
        }
        let photoName = folder.appendingPathComponent("\(stem)-photo-frame.\(format.rawValue)")
        if all || frames { for url in names { try overwriteOptions.check(url.path) } }
        if all || photoFrame { try overwriteOptions.check(photoName.path) }
        // Frames are decoded in order (H.264 and HEVC frames depend on earlier ones); the one showing at the photo
        // time is the last starting at or before it.
        let reader = try VideoFrameReader(movie: movie, track: track)
        let progress = ProgressBar(total: samples.count, label: "extracting frames")
        defer { progress.finish() }
        var photo: DecodedVideoFrame?
        var count = 0
        while let frame = try reader.next() {
            if all || frames, frame.index < names.count {
                try ImageFile.write(frame.pixels, to: names[frame.index])
                count += 1
            }
            if frame.time <= photoTime || photo == nil { photo = frame }
            progress.advance()
        }
        progress.finish()
        if all || frames { written.append("\(count) frames") }
        if all || photoFrame, let photo {
            try ImageFile.write(photo.pixels, to: photoName)
            written.append(
                photoName.lastPathComponent
                    + String(format: " (frame %d at %.3f s)", photo.index + 1, photo.time.seconds))
        }
        return written
    }
}
