internal import CGIF
import LuxPixels

/// A GIF file read by giflib (`DGifSlurp`: every frame's indices, de-interlaced) and composed frame by frame.
///
/// Create it only for data ``GIFStructure`` accepted: giflib trusts the sizes in the file.
final class GIFDecoder {
    private let file: UnsafeMutablePointer<GifFileType>

    /// Where the read callback is in the data.
    private final class Cursor {
        let data: UnsafeRawBufferPointer
        var offset = 0
        init(_ data: UnsafeRawBufferPointer) { self.data = data }
    }

    /// Reads the whole file.
    ///
    /// - Throws: ``CodecError/library(name:message:)`` (or `.truncated`) with giflib's message when the data is
    ///   damaged.
    init(_ raw: UnsafeRawBufferPointer, what: String) throws(CodecError) {
        let cursor = Cursor(raw)
        var error: Int32 = 0
        let opened = withExtendedLifetime(cursor) {
            DGifOpen(
                Unmanaged.passUnretained(cursor).toOpaque(),
                { gif, buffer, count in
                    guard let gif, let buffer, count > 0 else { return 0 }
                    let cursor = Unmanaged<Cursor>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
                    let n = min(Int(count), cursor.data.count - cursor.offset)
                    guard n > 0 else { return 0 }
                    buffer.update(
                        from: cursor.data.baseAddress!.advanced(by: cursor.offset).assumingMemoryBound(to: UInt8.self),
                        count: n)
                    cursor.offset += n
                    return Int32(n)
                }, &error)
        }
        guard let opened else { throw Self.error(error, what: what, size: raw.count) }
        // The callback reads `cursor` during the slurp only.
        let status = withExtendedLifetime(cursor) { DGifSlurp(opened) }
        guard status == GIF_OK else {
            let code = opened.pointee.Error
            DGifCloseFile(opened, &error)
            throw Self.error(code, what: what, size: raw.count)
        }
        file = opened
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
    }

    /// giflib's error `code` as a typed error.
    private static func error(_ code: Int32, what: String, size: Int) -> CodecError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
            return .truncated(what: "\(what) (\(message))", offset: size)
        }
        return .malformed(what: what, offset: 0, reason: "giflib: \(message)")
    }

    /// Draws frames 0…`index` onto `canvas` (RGBA, cleared to transparent), disposing of each before the next as its
    /// graphics control extension says.
    func compose(upTo index: Int, into canvas: MutableRawPlane) {
        let gif = file.pointee
        var saved: [UInt8] = []
        for i in 0...index {
            let image = gif.SavedImages[i]
            var control = GraphicsControlBlock(
                DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                TransparentColor: NO_TRANSPARENT_COLOR)
            _ = DGifSavedExtensionToGCB(file, Int32(i), &control)
            let d = image.ImageDesc
            // The part of the frame on the canvas.
            let x0 = max(0, Int(d.Left))
            let y0 = max(0, Int(d.Top))
            let x1 = min(canvas.width, Int(d.Left) + Int(d.Width))
            let y1 = min(canvas.height, Int(d.Top) + Int(d.Height))
            let disposal = control.DisposalMode
            if i < index, disposal == DISPOSE_PREVIOUS { saved = Self.copy(canvas) }
            if let map = d.ColorMap ?? gif.SColorMap, let bits = image.RasterBits, x1 > x0, y1 > y0 {
                let colors = map.pointee.Colors!
                let count = Int(map.pointee.ColorCount)
                let transparent = Int(control.TransparentColor)
                for y in y0..<y1 {
                    let source = bits + (y - Int(d.Top)) * Int(d.Width) - Int(d.Left)
                    let row = canvas.row(y).assumingMemoryBound(to: UInt8.self)
                    for x in x0..<x1 {
                        let c = Int(source[x])
                        guard c != transparent, c < count else { continue }
                        let entry = colors[c]
                        row[4 * x] = entry.Red
                        row[4 * x + 1] = entry.Green
                        row[4 * x + 2] = entry.Blue
                        row[4 * x + 3] = 255
                    }
                }
            }
            guard i < index else { break }
            // A frame placed wholly off the canvas (the gif fuzzer's finding: top 34048 on a 16-row screen) has nothing
            // to clear.
            if disposal == DISPOSE_BACKGROUND, x1 > x0, y1 > y0 {
                for y in y0..<y1 {
                    (canvas.row(y) + 4 * x0).initializeMemory(as: UInt8.self, repeating: 0, count: 4 * (x1 - x0))
                }
            } else if disposal == DISPOSE_PREVIOUS {
                Self.restore(saved, into: canvas)
            }
        }
    }

    private static func copy(_ canvas: MutableRawPlane) -> [UInt8] {
        let rowBytes = 4 * canvas.width
        var out = [UInt8](repeating: 0, count: rowBytes * canvas.height)
        out.withUnsafeMutableBytes { o in
            for y in 0..<canvas.height {
                (o.baseAddress! + y * rowBytes).copyMemory(from: canvas.row(y), byteCount: rowBytes)
            }
        }
        return out
    }

    private static func restore(_ saved: [UInt8], into canvas: MutableRawPlane) {
        let rowBytes = 4 * canvas.width
        saved.withUnsafeBytes { s in
            for y in 0..<canvas.height {
                canvas.row(y).copyMemory(from: s.baseAddress! + y * rowBytes, byteCount: rowBytes)
            }
        }
    }
}
