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
    /// With ``tryHarder``, whether windows of the picture are searched for off-centre Aztec codes (see
    /// ``codes(in:)``): the costliest part of a search, about as much again as the rest on a 1008 × 756 frame.
    public var searchesOffCentreAztec = true

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
    /// (``aztecWindows(width:height:)``), on a copy reduced to about 1024 pixels on its shorter side when larger.
    ///
    /// - Throws: ``CodeError/library(_:)`` when zxing-cpp fails.
    public func codes(in buffer: PixelBuffer) throws(CodeError) -> [DetectedCode] {
        guard !symbologies.isEmpty else { return [] }
        let gray = buffer.converted(to: .gray8)
        let formats = symbologies.reduce(Int32(0)) { $0 | $1.zxingFormat }
        let limit = min(max(maximumCount, 1), 255)
        let whole = gray.withUnsafePlane { plane -> Result<[DetectedCode], CodeError> in
            do throws(CodeError) {
                return .success(
                    try read(
                        plane.row(0, as: UInt8.self), x0: 0, y0: 0, width: gray.width, height: gray.height,
                        stride: plane.bytesPerRow, formats: formats, limit: limit))
            } catch {
                return .failure(error)
            }
        }
        var found = try whole.get()
        guard tryHarder, searchesOffCentreAztec, symbologies.contains(.aztec), found.count < limit else { return found }
        let factor = max(1, (min(gray.width, gray.height) + 1023) / 1024)
        let small = Self.reduced(gray, by: factor)
        let w = gray.width / factor
        let h = gray.height / factor
        let windows = small.withUnsafeBufferPointer { pixels -> Result<[DetectedCode], CodeError> in
            guard let base = pixels.baseAddress else { return .success([]) }
            var codes: [DetectedCode] = []
            do throws(CodeError) {
                for window in Self.aztecWindows(width: w, height: h) {
                    guard Self.hasContrast(base, stride: w, around: window) else { continue }
                    codes += try read(
                        base + window.y0 * w + window.x0, x0: window.x0, y0: window.y0, width: window.side,
                        height: window.side, stride: w, formats: Symbology.aztec.zxingFormat, limit: 1,
                        scale: factor)
                }
                return .success(codes)
            } catch {
                return .failure(error)
            }
        }
        for code in try windows.get() where found.count < limit && !found.contains(where: { $0.isSameSymbol(as: code) })
        {
            found.append(code)
        }
        return found
    }

    /// The 8-bit luma of `gray` averaged over `factor` × `factor` blocks (row-major, `width / factor` per row).
    static func reduced(_ gray: PixelBuffer, by factor: Int) -> [UInt8] {
        let w = gray.width / factor
        let h = gray.height / factor
        let source = gray.components(as: UInt8.self)
        guard factor > 1 else { return Array(source.prefix(w * h)) }
        var out = [UInt8](repeating: 0, count: w * h)
        var sums = [Int](repeating: 0, count: w)
        let area = factor * factor
        for y in 0..<h {
            for x in 0..<w { sums[x] = 0 }
            for sy in (y * factor)..<((y + 1) * factor) {
                let row = sy * gray.width
                for x in 0..<w {
                    var sum = 0
                    for sx in (x * factor)..<((x + 1) * factor) { sum += Int(source[row + sx]) }
                    sums[x] += sum
                }
            }
            for x in 0..<w { out[y * w + x] = UInt8((sums[x] + area / 2) / area) }
        }
        return out
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

    /// The codes zxing-cpp finds in a `width` × `height` view at `luminance`, their corners moved by (`x0`, `y0`) and
    /// scaled by `scale` (the view is of a picture reduced that many times).
    private func read(
        _ luminance: UnsafePointer<UInt8>, x0: Int, y0: Int, width: Int, height: Int, stride: Int, formats: Int32,
        limit: Int, scale: Int = 1
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
            let corners = (0..<4).map {
                Point(x: Double((Int(k[2 * $0]) + x0) * scale), y: Double((Int(k[2 * $0 + 1]) + y0) * scale))
            }
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
