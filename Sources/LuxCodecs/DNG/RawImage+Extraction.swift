public import LuxPixels

extension RawImage {
    /// The sensor values of the active area as a `.gray16` buffer, after the LinearizationTable and before black-level
    /// subtraction — what `dcraw -D -4` writes.
    ///
    /// CFA data only.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Linear Raw or floating-point data.
    public func sensorValues() throws(CodecError) -> PixelBuffer {
        guard properties.samplesPerPixel == 1, pixels.format.componentType == .uint16 else {
            throw .invalidArgument(
                "sensor values can be extracted from single-sample (CFA or monochrome) raw data only")
        }
        let area = properties.activeArea
        let out = PixelBuffer(width: area.width, height: area.height, format: .gray16)
        let table = properties.linearizationTable
        let dst = out.unsafeSharedMutablePlane()
        pixels.withUnsafePlane { src in
            for y in 0..<area.height {
                let s = src.row(area.top + y, as: UInt16.self) + area.left
                let d = dst.row(y, as: UInt16.self)
                if let table, !table.isEmpty {
                    let last = table.count - 1
                    for x in 0..<area.width { d[x] = table[min(Int(s[x]), last)] }
                } else {
                    d.update(from: s, count: area.width)
                }
            }
        }
        withExtendedLifetime(out) {}
        return out
    }

    /// The largest embedded preview, if the file has one.
    public var largestPreview: EmbeddedPreview? {
        // The largest, preferring a JPEG when sizes tie (the thumbnail is often the preview downscaled).
        properties.previews.max {
            ($0.width * $0.height, $0.encoding == .jpeg ? 1 : 0) < ($1.width * $1.height, $1.encoding == .jpeg ? 1 : 0)
        }
    }
}

extension EmbeddedPreview {
    /// Decodes the preview's pixels (`.rgba8` or `.gray8`, sRGB unless the file says otherwise).
    ///
    /// - Parameter limits: Size bounds checked before anything is allocated.
    /// - Throws: ``CodecError/missingPixelData(what:reason:)`` when the data was not loaded or is cut short,
    ///   ``CodecError/unsupported(what:reason:)`` for encodings other than JPEG and 8-bit uncompressed,
    ///   ``CodecError/limitExceeded(what:value:limit:)`` for sizes beyond `limits`.
    public func image(limits: DecodingLimits = .default) throws(CodecError) -> PixelBuffer {
        guard let data else {
            throw .missingPixelData(
                what: "preview \(width)×\(height)", reason: "its data was not loaded (read the whole file)")
        }
        switch encoding {
        case .jpeg:
            return try JPEG.decode(data, options: DecodingOptions(limits: limits, threads: 1)).pixels
        case .uncompressed:
            guard bitsPerSample == 8, samplesPerPixel == 3 || samplesPerPixel == 1 else {
                throw .unsupported(
                    what: "uncompressed preview with \(samplesPerPixel) × \(bitsPerSample)-bit samples",
                    reason: "8-bit gray or RGB previews are decoded")
            }
            try limits.check(width: width, height: height, bytesPerPixel: 4, what: "preview")
            guard data.count >= width * height * samplesPerPixel else {
                throw .missingPixelData(what: "preview \(width)×\(height)", reason: "\(data.count) bytes are too few")
            }
            let gray = samplesPerPixel == 1
            let out = PixelBuffer(
                width: width, height: height, format: gray ? .gray8 : .rgba8,
                colorSpace: gray ? .genericGrayGamma2_2 : .sRGB)
            let dst = out.unsafeSharedMutablePlane()
            for y in 0..<height {
                let d = dst.row(y, as: UInt8.self)
                for x in 0..<width {
                    if gray {
                        d[x] = data[y * width + x]
                    } else {
                        for c in 0..<3 { d[4 * x + c] = data[(y * width + x) * 3 + c] }
                        d[4 * x + 3] = 255
                    }
                }
            }
            withExtendedLifetime(out) {}
            return out
        case .other:
            throw .unsupported(
                what: "preview encoding", reason: "only JPEG and 8-bit uncompressed previews are decoded")
        }
    }
}
