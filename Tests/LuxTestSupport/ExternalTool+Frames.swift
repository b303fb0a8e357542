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
}
