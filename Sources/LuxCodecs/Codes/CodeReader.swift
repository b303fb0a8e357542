internal import CLuxZXing
public import LuxPixels

/// Finds and decodes machine-readable codes in images with zxing-cpp (the detector behind ``Symbology`` metadata).
///
/// ```swift
/// let codes = try CodeReader(symbologies: [.qr, .aztec]).codes(in: ImageFile.read(url: url).pixels)
/// for code in codes { print(code.symbology, code.stringValue, code.bounds) }
/// ```
///
/// The image is read as 8-bit luma of its stored values (BT.709 weights), so encoded (sRGB) images read best;
/// light codes on dark backgrounds and mirrored QR and Data Matrix codes are found too.
public struct CodeReader: Sendable, Hashable {
    /// The symbologies looked for.
    public var symbologies: Set<Symbology>
    /// Spend more time (more scan lines, rotations) to find hard codes.
    public var tryHarder: Bool
    /// The most codes returned from one image.
    public var maximumCount: Int

    /// A reader of `symbologies` (default: all).
    public init(symbologies: Set<Symbology> = Set(Symbology.allCases), tryHarder: Bool = true, maximumCount: Int = 64) {
        self.symbologies = symbologies
        self.tryHarder = tryHarder
        self.maximumCount = maximumCount
    }

    /// The codes in `buffer`, in the order zxing-cpp finds them.
    ///
    /// zxing-cpp's Aztec detector looks for the bullseye from the centre of the picture only; with ``tryHarder`` an
    /// Aztec code elsewhere is found too, by reading windows of the picture centred on a grid of points
    /// (``aztecWindows(width:height:)``).
    ///
    /// - Throws: ``CodeError/library(_:)`` when zxing-cpp fails.
    public func codes(in buffer: PixelBuffer) throws(CodeError) -> [DetectedCode] {
        guard !symbologies.isEmpty else { return [] }
        let gray = buffer.converted(to: .gray8)
        let formats = symbologies.reduce(Int32(0)) { $0 | $1.zxingFormat }
        let limit = min(max(maximumCount, 1), 255)
        let searchesAztec = tryHarder && symbologies.contains(.aztec)
        let result = gray.withUnsafePlane { plane -> Result<[DetectedCode], CodeError> in
            let base = plane.row(0, as: UInt8.self)
            let stride = plane.bytesPerRow
            do throws(CodeError) {
                var found = try read(
                    base, x0: 0, y0: 0, width: gray.width, height: gray.height, stride: stride, formats: formats,
                    limit: limit)
                guard searchesAztec else { return .success(found) }
                for window in Self.aztecWindows(width: gray.width, height: gray.height) where found.count < limit {
                    guard Self.hasContrast(base, stride: stride, around: window) else { continue }
                    let codes = try read(
                        base + window.y0 * stride + window.x0, x0: window.x0, y0: window.y0, width: window.side,
                        height: window.side, stride: stride, formats: Symbology.aztec.zxingFormat, limit: 1)
                    for code in codes where !found.contains(where: { $0.isSameSymbol(as: code) }) {
                        found.append(code)
                    }
                }
                return .success(found)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The square windows searched for off-centre Aztec codes: sides of ½ and ¼ of the picture's shorter side, their
    /// centres a quarter of a side apart, so that every code from about a tenth of the shorter side up to half of
    /// it has its bullseye near the centre of one window that holds it whole.
    static func aztecWindows(width: Int, height: Int) -> [(x0: Int, y0: Int, side: Int)] {
        let shorter = min(width, height)
        var windows: [(x0: Int, y0: Int, side: Int)] = []
        for side in [shorter / 2, shorter / 4] where side >= 48 {
            let step = max(1, side / 4)
            for y0 in Swift.stride(from: 0, through: height - side, by: step) {
                for x0 in Swift.stride(from: 0, through: width - side, by: step) {
                    windows.append((x0, y0, side))
                }
            }
        }
        return windows
    }

    /// Whether the middle of `window` has the contrast of a code (dark and light modules): a window centred on a
    /// flat area holds no bullseye and is not read.
    static func hasContrast(
        _ base: UnsafePointer<UInt8>, stride: Int, around window: (x0: Int, y0: Int, side: Int)
    ) -> Bool {
        let half = max(2, window.side / 16)
        let cx = window.x0 + window.side / 2
        let cy = window.y0 + window.side / 2
        var lo = UInt8.max
        var hi = UInt8.min
        for y in Swift.stride(from: cy - half, to: cy + half, by: 2) {
            let row = base + y * stride
            for x in Swift.stride(from: cx - half, to: cx + half, by: 2) {
                lo = min(lo, row[x])
                hi = max(hi, row[x])
            }
        }
        return Int(hi) - Int(lo) >= 64
    }

    /// The codes zxing-cpp finds in a `width` × `height` view at `luminance`, their corners moved by (`x0`, `y0`).
    private func read(
        _ luminance: UnsafePointer<UInt8>, x0: Int, y0: Int, width: Int, height: Int, stride: Int, formats: Int32,
        limit: Int
    ) throws(CodeError) -> [DetectedCode] {
        var codes: UnsafeMutablePointer<LuxZXCode>? = nil
        var error = [CChar](repeating: 0, count: 256)
        let count = lux_zx_read(
            luminance, Int32(width), Int32(height), Int32(stride), formats, tryHarder ? 1 : 0, tryHarder ? 1 : 0,
            Int32(limit), &codes, &error, error.count)
        guard count >= 0 else {
            throw .library(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let codes else { return [] }
        defer { lux_zx_free_codes(codes, count) }
        var out: [DetectedCode] = []
        for i in 0..<Int(count) {
            let c = codes[i]
            let payload = c.byteCount > 0 ? Array(UnsafeBufferPointer(start: c.bytes, count: c.byteCount)) : []
            guard var symbology = Symbology(zxingFormat: c.format, payload: payload) else { continue }
            if symbology == .itf14, !symbologies.contains(.itf14) { symbology = .interleaved2of5 }
            guard symbologies.contains(symbology) else { continue }
            let k = [
                c.corners.0, c.corners.1, c.corners.2, c.corners.3, c.corners.4, c.corners.5, c.corners.6,
                c.corners.7,
            ]
            let corners = (0..<4).map { Point(x: Double(Int(k[2 * $0]) + x0), y: Double(Int(k[2 * $0 + 1]) + y0)) }
            let level = withUnsafeBytes(of: c.ecLevel) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            out.append(
                DetectedCode(
                    symbology: symbology, payload: payload, corners: corners,
                    errorCorrectionLevel: level.isEmpty ? nil : level))
        }
        return out
    }
}

extension DetectedCode {
    /// Whether `other` is this symbol found again (same symbology and payload, centres within half its size).
    func isSameSymbol(as other: DetectedCode) -> Bool {
        guard symbology == other.symbology, payload == other.payload else { return false }
        let dx = bounds.midX - other.bounds.midX
        let dy = bounds.midY - other.bounds.midY
        let size = max(bounds.width, bounds.height, other.bounds.width, other.bounds.height)
        return (dx * dx + dy * dy).squareRoot() <= size / 2
    }
}
