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
    /// - Throws: ``CodeError/library(_:)`` when zxing-cpp fails.
    public func codes(in buffer: PixelBuffer) throws(CodeError) -> [DetectedCode] {
        guard !symbologies.isEmpty else { return [] }
        let gray = buffer.converted(to: .gray8)
        let formats = symbologies.reduce(Int32(0)) { $0 | $1.zxingFormat }
        var codes: UnsafeMutablePointer<LuxZXCode>? = nil
        var error = [CChar](repeating: 0, count: 256)
        let count = gray.withUnsafePlane { plane in
            lux_zx_read(
                plane.row(0, as: UInt8.self), Int32(gray.width), Int32(gray.height), Int32(plane.bytesPerRow), formats,
                tryHarder ? 1 : 0, tryHarder ? 1 : 0, Int32(min(max(maximumCount, 1), 255)), &codes, &error,
                error.count)
        }
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
            let corners = (0..<4).map { Point(x: Double(k[2 * $0]), y: Double(k[2 * $0 + 1])) }
            let level = withUnsafeBytes(of: c.ecLevel) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            out.append(
                DetectedCode(
                    symbology: symbology, payload: payload, corners: corners,
                    errorCorrectionLevel: level.isEmpty ? nil : level))
        }
        return out
    }
}
