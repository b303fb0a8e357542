internal import CGIF
import LuxColor
import LuxPixels

/// A GIF89a written by giflib into memory, frame by frame: each frame full-canvas with its own median-cut palette.
final class GIFWriter {
    let width: Int
    let height: Int
    private var file: UnsafeMutablePointer<GifFileType>?
    private let sink = Sink()
    private var frameCount = 0

    private final class Sink { var bytes: [UInt8] = [] }

    /// Starts a file; `loopCount` (0: forever) adds the NETSCAPE2.0 looping extension of an animation.
    init(width: Int, height: Int, loopCount: Int?) throws(CodecError) {
        guard (1...GIF.maximumDimension).contains(width), (1...GIF.maximumDimension).contains(height) else {
            throw .invalidArgument(
                "GIF images are 1 to \(GIF.maximumDimension) pixels on a side, not \(width) × \(height)")
        }
        self.width = width
        self.height = height
        var error: Int32 = 0
        file = EGifOpen(
            Unmanaged.passUnretained(sink).toOpaque(),
            { gif, data, count in
                guard let gif, let data, count > 0 else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
                sink.bytes += UnsafeBufferPointer(start: data, count: Int(count))
                return count
            }, &error)
        guard let file else { throw Self.error(error) }
        EGifSetGifVersion(file, true)
        try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil))
        if let loopCount {
            try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE))
            try check(EGifPutExtensionBlock(file, 11, Array("NETSCAPE2.0".utf8)))
            let n = UInt16(clamping: loopCount)
            try check(EGifPutExtensionBlock(file, 3, [1, UInt8(n & 0xFF), UInt8(n >> 8)]))
            try check(EGifPutExtensionTrailer(file))
        }
    }

    deinit {
        if let file {
            var error: Int32 = 0
            EGifCloseFile(file, &error)
        }
    }

    private static func error(_ code: Int32) -> CodecError {
        .library(name: "giflib", message: GifErrorString(code).map { String(cString: $0) } ?? "error \(code)")
    }

    private func check(_ status: Int32) throws(CodecError) {
        guard status == GIF_OK else { throw Self.error(file?.pointee.Error ?? 0) }
    }

    /// Adds a frame of the canvas's size shown for `delay` hundredths of a second.
    ///
    /// The pixels are colour-matched to sRGB and quantised (dithered unless ``EncodingOptions/dithers`` is off);
    /// alpha below one half becomes transparent when the options' alpha policy writes alpha.
    func add(_ pixels: PixelBuffer, delay: Int, options: EncodingOptions) throws(CodecError) {
        guard let file else { throw .invalidArgument("the GIF is already finished") }
        guard pixels.width == width, pixels.height == height else {
            throw .invalidArgument("a \(pixels.width)×\(pixels.height) frame on a \(width)×\(height) GIF")
        }
        let prepared = try RGBEncoding.prepare(
            pixels, format: "GIF", maximumDimension: GIF.maximumDimension, options: GIF.srgbOptions(options))
        var quantizer = MedianCutQuantizer(prepared.pixels, transparent: prepared.hasAlpha)
        let indices = quantizer.map(prepared.pixels, dithers: options.dithers)
        var control = GraphicsControlBlock(
            DisposalMode: prepared.hasAlpha ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT, UserInputFlag: false,
            DelayTime: Int32(clamping: delay), TransparentColor: Int32(quantizer.transparentIndex ?? -1))
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        _ = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, extensionBytes))
        var size = 2
        while size < quantizer.palette.count { size *= 2 }
        let colors = (0..<size).map { i in
            let p = i < quantizer.palette.count ? quantizer.palette[i] : (0, 0, 0)
            return GifColorType(Red: p.0, Green: p.1, Blue: p.2)
        }
        guard let map = GifMakeMapObject(Int32(size), colors) else {
            throw .library(name: "giflib", message: "cannot make a colour map")
        }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map))
        var row = [UInt8](repeating: 0, count: width)
        for y in 0..<height {
            row.replaceSubrange(0..<width, with: indices[(y * width)..<((y + 1) * width)])
            try check(EGifPutLine(file, &row, Int32(width)))
        }
        frameCount += 1
    }

    /// Completes the file and returns its bytes.
    func finish() throws(CodecError) -> [UInt8] {
        guard let file else { throw .invalidArgument("the GIF is already finished") }
        guard frameCount > 0 else { throw .invalidArgument("a GIF needs at least one frame") }
        self.file = nil
        var error: Int32 = 0
        guard EGifCloseFile(file, &error) == GIF_OK else { throw Self.error(error) }
        return sink.bytes
    }
}
