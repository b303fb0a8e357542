import Dispatch
import LuxPixels
import Synchronization

/// Encodes an image as a grid of HEVC tiles (512 × 512, as iOS does), a tile row at a time.
///
/// Rows arrive top to bottom in ``sampleFormat`` (8- or 16-bit RGBA, or 8- or 16-bit gray for auxiliary images) and
/// are kept until a tile row is complete; its tiles are then converted to Y′CbCr (BT.601 full range, 4:2:0, chroma
/// from 2 × 2 averages) or 4:0:0 and encoded in parallel, each by its own single-threaded x265 encoder, so the output
/// is the same on any number of threads. Memory: one tile row of samples and the coded tiles.
final class HEIFGridEncoder {
    let width: Int
    let height: Int
    let tileWidth: Int
    let tileHeight: Int
    let columns: Int
    let rows: Int
    let settings: HEVCPicture.Settings
    let sampleFormat: PixelFormat
    let threads: Int
    /// The coded tiles, row by row.
    private(set) var tiles: [HEVCPicture] = []
    private var buffer: PixelBuffer
    private var filled = 0
    private var rowsSeen = 0

    /// The largest tile side (iOS uses 512).
    static let tileSide = 512

    /// Prepares a grid of `width` × `height` pixels.
    ///
    /// - Parameter single: Code the image as one picture of exactly its size (even, at most 512 × 512) instead of
    ///   grid tiles: a thumbnail.
    init(
        width: Int, height: Int, settings: HEVCPicture.Settings, sampleFormat: PixelFormat, threads: Int,
        single: Bool = false
    ) {
        self.width = width
        self.height = height
        if single {
            (tileWidth, tileHeight) = (width, height)
        } else {
            // Tiles of at most 512 × 512, whole CTUs (64) for small images, all the same size as a grid requires.
            tileWidth = min(Self.tileSide, (width + 63) / 64 * 64)
            tileHeight = min(Self.tileSide, (height + 63) / 64 * 64)
        }
        columns = (width + tileWidth - 1) / tileWidth
        rows = (height + tileHeight - 1) / tileHeight
        self.settings = settings
        self.sampleFormat = sampleFormat
        self.threads = max(1, threads)
        buffer = PixelBuffer(width: width, height: tileHeight, format: sampleFormat)
    }

    /// Appends rows (a buffer of the image's width in ``sampleFormat``), encoding each tile row it completes.
    func append(_ band: PixelBuffer) throws(CodecError) {
        var done = 0
        let bytes = width * sampleFormat.bytesPerPixel()
        while done < band.height {
            let n = min(band.height - done, tileHeight - filled)
            let target = buffer.unsafeSharedMutablePlane()
            band.withUnsafePlane { src in
                for r in 0..<n { target.row(filled + r).copyMemory(from: src.row(done + r), byteCount: bytes) }
            }
            filled += n
            done += n
            rowsSeen += n
            if filled == tileHeight || rowsSeen == height { try encodeTileRow() }
        }
    }

    /// Encodes the tiles of the rows kept so far (the last tile row may be short: its missing rows repeat the last).
    private func encodeTileRow() throws(CodecError) {
        let rowCount = filled
        let results = Mutex<[Int: Result<HEVCPicture, CodecError>]>([:])
        let next = Atomic(0)
        let (columns, tileWidth, tileHeight, width, settings) = (columns, tileWidth, tileHeight, width, settings)
        let workers = min(threads, columns)
        let source = buffer
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            var planes = TilePlanes(width: tileWidth, height: tileHeight, settings: settings)
            while true {
                let column = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard column < columns else { break }
                let result = Result { () throws(CodecError) -> HEVCPicture in
                    planes.fill(from: source, x0: column * tileWidth, imageWidth: width, rows: rowCount)
                    return try planes.encode()
                }
                results.withLock { $0[column] = result }
            }
        }
        let done = results.withLock { $0 }
        for column in 0..<columns {
            guard let result = done[column] else { throw .library(name: "x265", message: "a tile was not encoded") }
            tiles.append(try result.get())
        }
        filled = 0
    }
}

/// The Y′CbCr planes of one tile, reused from tile to tile by one encoding thread.
private struct TilePlanes {
    let width: Int
    let height: Int
    let settings: HEVCPicture.Settings
    private var luma: [UInt16]
    private var blue: [UInt16]
    private var red: [UInt16]

    init(width: Int, height: Int, settings: HEVCPicture.Settings) {
        self.width = width
        self.height = height
        self.settings = settings
        luma = [UInt16](repeating: 0, count: width * height)
        let chroma = settings.monochrome ? 0 : (width / 2) * (height / 2)
        blue = [UInt16](repeating: 0, count: chroma)
        red = [UInt16](repeating: 0, count: chroma)
    }

    /// Converts the tile whose left edge is column `x0` of `source` (rows 0..<`rows`, `imageWidth` wide).
    ///
    /// Pixels past the image's right or bottom edge repeat the edge; 16-bit samples are rounded to the tile's bit
    /// depth.
    mutating func fill(from source: PixelBuffer, x0: Int, imageWidth: Int, rows: Int) {
        let maximum = Float((1 << settings.bitDepth) - 1)
        let gray = !source.format.hasAlpha
        let sixteen = source.format.componentType == .uint16
        let scale = maximum / (sixteen ? 65535 : 255)
        let (w, h) = (width, height)
        source.withUnsafePlane { plane in
            luma.withUnsafeMutableBufferPointer { y in
                blue.withUnsafeMutableBufferPointer { cb in
                    red.withUnsafeMutableBufferPointer { cr in
                        /// The RGB of tile pixel (tx, ty), 0…maximum.
                        func rgb(_ tx: Int, _ ty: Int) -> SIMD3<Float> {
                            let x = min(x0 + tx, imageWidth - 1)
                            let row = plane.row(min(ty, rows - 1))
                            if gray {
                                let v =
                                    sixteen
                                    ? Float(row.assumingMemoryBound(to: UInt16.self)[x])
                                    : Float(row.assumingMemoryBound(to: UInt8.self)[x])
                                return SIMD3(repeating: v * scale)
                            }
                            if sixteen {
                                let p = row.assumingMemoryBound(to: UInt16.self) + 4 * x
                                return SIMD3(Float(p[0]), Float(p[1]), Float(p[2])) * scale
                            }
                            let p = row.assumingMemoryBound(to: UInt8.self) + 4 * x
                            return SIMD3(Float(p[0]), Float(p[1]), Float(p[2])) * scale
                        }
                        let weights = SIMD3<Float>(0.299, 0.587, 0.114)
                        let half = (maximum + 1) / 2
                        for ty in 0..<h {
                            for tx in 0..<w {
                                let c = rgb(tx, ty)
                                y[ty * w + tx] = UInt16(min(max((c * weights).sum().rounded(), 0), maximum))
                            }
                        }
                        guard !settings.monochrome else { return }
                        let cw = w / 2
                        for cy in 0..<(h / 2) {
                            for cx in 0..<cw {
                                let c =
                                    (rgb(2 * cx, 2 * cy) + rgb(2 * cx + 1, 2 * cy) + rgb(2 * cx, 2 * cy + 1)
                                        + rgb(2 * cx + 1, 2 * cy + 1)) * 0.25
                                let l = (c * weights).sum()
                                // BT.601: Cb = (B − Y) / 1.772, Cr = (R − Y) / 1.402, offset by half the range.
                                cb[cy * cw + cx] = UInt16(min(max(((c.z - l) / 1.772 + half).rounded(), 0), maximum))
                                cr[cy * cw + cx] = UInt16(min(max(((c.x - l) / 1.402 + half).rounded(), 0), maximum))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Encodes the planes (narrowed to bytes for 8-bit tiles).
    func encode() throws(CodecError) -> HEVCPicture {
        let eight = settings.bitDepth == 8
        let planes = settings.monochrome ? [luma] : [luma, blue, red]
        let widths = settings.monochrome ? [width] : [width, width / 2, width / 2]
        if eight {
            let bytes = planes.map { $0.map { UInt8(truncatingIfNeeded: $0) } }
            return try withPointers(bytes) { pointers throws(CodecError) in
                try HEVCPicture.encode(
                    width: width, height: height, planes: pointers, strides: widths, settings: settings)
            }
        }
        return try withPointers(planes) { pointers throws(CodecError) in
            try HEVCPicture.encode(
                width: width, height: height, planes: pointers, strides: widths.map { 2 * $0 }, settings: settings)
        }
    }
}

/// Calls `body` with the base addresses of `arrays`, all pinned for the call.
private func withPointers<T, R>(
    _ arrays: [[T]], _ body: ([UnsafeRawPointer]) throws(CodecError) -> R
) throws(CodecError) -> R {
    func pin(_ i: Int, _ acc: [UnsafeRawPointer]) -> Result<R, CodecError> {
        if i == arrays.count { return Result { () throws(CodecError) in try body(acc) } }
        return arrays[i].withUnsafeBytes { raw in pin(i + 1, acc + [raw.baseAddress!]) }
    }
    return try pin(0, []).get()
}
