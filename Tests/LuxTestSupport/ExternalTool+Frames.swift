public import Foundation

extension ExternalTool {
    /// FFmpeg's decoding of every video frame of the movie at `url`, as 8-bit RGB (`rgb24`), one array per frame of
    /// `width` × `height` pixels.
    public static func ffmpegRGBFrames(_ url: URL, width: Int, height: Int) throws -> [[UInt8]] {
        let raw = try capture(
            "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        ).succeeded()
        let size = width * height * 3
        let bytes = [UInt8](raw.stdout)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    /// FFmpeg's `framemd5` of the video at `url`: per frame, its decode time, presentation time, duration, size and
    /// MD5 — of the stored packets (`packets`: `-c copy`) or of the decoded pictures.
    public static func ffmpegFrameHashes(_ url: URL, packets: Bool) throws -> [String] {
        let copy = packets ? ["-c", "copy"] : []
        let run = try capture(
            "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v"] + copy + ["-f", "framemd5", "-"]
        ).succeeded()
        return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            // stream, dts, pts, duration, size, hash: all but the stream.
            $0.split(separator: ",").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
        }
    }
}
