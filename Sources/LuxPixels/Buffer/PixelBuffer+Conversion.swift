internal import CLuxKernels
public import LuxColor

extension PixelBuffer {
    /// The same pixels in another format (colour space, metadata and premultiplication kept).
    ///
    /// Integer formats round to the nearest code and clip; Y′CbCr uses `matrix` (4:2:0 chroma is the
    /// average of each 2×2 block); RGB → gray uses BT.709 luma weights; RGBA → Bayer samples the channel the
    /// CFA has at each site; Bayer → RGBA replicates the sensor value (use LuxRAW to demosaic).
    ///
    /// - Complexity: O(width × height), split across `threads`.
    public func converted(to newFormat: PixelFormat, matrix: YCbCrMatrix = .bt709, threads: Int = 1) -> PixelBuffer {
        if newFormat == format { return self }
        var out = PixelBuffer(
            width: width, height: height, format: newFormat, colorSpace: colorSpace, metadata: metadata)
        out.isPremultiplied = isPremultiplied
        if newFormat.isYCbCr {
            writeYCbCr(into: out, matrix: matrix, threads: threads)
            return out
        }
        let src = self
        let dst = out
        Parallel.forEachBand(height, threads: threads) { rows in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * src.width) { scratch in
                let s = scratch.baseAddress!
                for y in rows {
                    // Direct paths avoid the float hub where it would only cost time.
                    if src.format == .rgbaHalf, dst.format == .rgbaFloat {
                        src.withUnsafePlane { p in
                            lux_half_to_float(
                                p.row(y, as: UInt16.self), dst.unsafeSharedMutablePlane().row(y, as: Float.self),
                                4 * src.width)
                        }
                        continue
                    }
                    if src.format == .rgbaFloat, dst.format == .rgbaHalf {
                        src.withUnsafePlane { p in
                            lux_float_to_half(
                                p.row(y, as: Float.self), dst.unsafeSharedMutablePlane().row(y, as: UInt16.self),
                                4 * src.width)
                        }
                        continue
                    }
                    src.readRGBAFloat(row: y, into: s, matrix: matrix)
                    dst.writeRGBAFloat(row: y, from: s)
                }
            }
        }
        return out
    }

    private func writeYCbCr(into out: PixelBuffer, matrix: YCbCrMatrix, threads: Int) {
        let (sx, sy) = out.format.subsampling(plane: 1)
        let (kr, kb) = matrix.coefficients
        let kg = 1 - kr - kb
        let video = out.format.isVideoRange
        let yScale: Float = video ? 219 : 255
        let yOffset: Float = video ? 16 : 0
        let cScale: Float = video ? 224 : 255
        let src = self
        let chromaRows = out.planeSize(1).height
        let lumaPlane = out.unsafeSharedMutablePlane(0)
        let chromaPlane = out.unsafeSharedMutablePlane(1)
        let w = width
        let h = height
        Parallel.forEachBand(chromaRows, threads: threads, minimumBand: 8) { rows in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 8 * w) { scratch in
                let rowsBuf = [scratch.baseAddress!, scratch.baseAddress! + 4 * w]
                for cy in rows {
                    let ys = (0..<sy).map { min(cy * sy + $0, h - 1) }
                    for (k, y) in ys.enumerated() {
                        src.readRGBAFloat(row: y, into: rowsBuf[k], matrix: matrix)
                        let l = lumaPlane.row(y, as: UInt8.self)
                        let p = rowsBuf[k]
                        for i in 0..<w {
                            let yy = kr * p[4 * i] + kg * p[4 * i + 1] + kb * p[4 * i + 2]
                            l[i] = UInt8(truncatingIfNeeded: nearestCode((yy * yScale + yOffset) / 255, 255))
                        }
                    }
                    let c = chromaPlane.row(cy, as: UInt8.self)
                    let cw = (w + sx - 1) / sx
                    for j in 0..<cw {
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        var n: Float = 0
                        for k in 0..<sy {
                            for dx in 0..<sx where j * sx + dx < w {
                                let p = rowsBuf[k] + 4 * (j * sx + dx)
                                r += p[0]
                                g += p[1]
                                b += p[2]
                                n += 1
                            }
                        }
                        r /= n
                        g /= n
                        b /= n
                        let yy = kr * r + kg * g + kb * b
                        let cb = (b - yy) / (2 * (1 - kb))
                        let cr = (r - yy) / (2 * (1 - kr))
                        c[2 * j] = UInt8(truncatingIfNeeded: nearestCode((cb * cScale + 128) / 255, 255))
                        c[2 * j + 1] = UInt8(truncatingIfNeeded: nearestCode((cr * cScale + 128) / 255, 255))
                    }
                }
            }
        }
        withExtendedLifetime(out) {}
    }

    /// The same pixels colour-matched into `destination` (format unchanged).
    ///
    /// - Throws: ``PixelError/colorSpace(_:)`` when the buffer has no colour space or the conversion is
    ///   undefined, ``PixelError/unsupportedConversion(from:to:reason:)`` for Bayer buffers (develop them first).
    /// - Complexity: O(width × height), split across `threads`.
    public func matchingColors(to destination: ColorSpace, threads: Int = 1) throws(PixelError) -> PixelBuffer {
        guard let source = colorSpace else {
            throw .colorSpace("the buffer has no colour space to convert from")
        }
        guard !format.isMosaic else {
            throw .unsupportedConversion(
                from: format, to: format, reason: "mosaic (Bayer or X-Trans) data has no colour space; develop it first"
            )
        }
        let converter: ColorConverter
        do { converter = try ColorConverter(from: source, to: destination) } catch {
            throw .colorSpace(error.description)
        }
        var out = PixelBuffer(width: width, height: height, format: format, colorSpace: destination, metadata: metadata)
        out.isPremultiplied = isPremultiplied
        try out.convert(from: self, using: converter, threads: threads)
        return out
    }

    /// Colour-matches `source` (same size and format) into this buffer's memory.
    package func convert(from source: PixelBuffer, using converter: ColorConverter, threads: Int) throws(PixelError) {
        precondition(source.width == width && source.height == height && source.format == format)
        let dst = self
        let fmt = format
        Parallel.forEachBand(height, threads: threads) { rows in
            source.withUnsafePlane { sp in
                let dp = dst.unsafeSharedMutablePlane()
                switch fmt {
                case .rgba8:
                    for y in rows {
                        converter.convert(
                            rgba8: sp.row(y, as: UInt8.self), into: dp.row(y, as: UInt8.self), count: source.width)
                    }
                case .rgbaHalf:
                    for y in rows {
                        converter.convert(
                            rgbaHalf: sp.row(y, as: Float16.self), into: dp.row(y, as: Float16.self),
                            count: source.width)
                    }
                case .rgbaFloat:
                    for y in rows {
                        converter.convert(
                            rgba: sp.row(y, as: Float.self), into: dp.row(y, as: Float.self), count: source.width)
                    }
                default:
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * source.width) { scratch in
                        let s = scratch.baseAddress!
                        for y in rows {
                            source.readRGBAFloat(row: y, into: s)
                            converter.convertInPlace(rgba: s, count: source.width)
                            dst.writeRGBAFloat(row: y, from: s)
                        }
                    }
                }
            }
        }
        withExtendedLifetime(dst) {}
    }

    // MARK: Single pixels (slow; for tests, probes and small data)

    /// The pixel at `(x, y)` as normalised RGBA Float (see ``converted(to:matrix:threads:)`` for the rules).
    public func pixel(x: Int, y: Int, matrix: YCbCrMatrix = .bt709) -> SIMD4<Float> {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)×\(height)")
        var row = [Float](repeating: 0, count: 4 * width)
        row.withUnsafeMutableBufferPointer { readRGBAFloat(row: y, into: $0.baseAddress!, matrix: matrix) }
        return SIMD4(row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3])
    }

    /// Sets the pixel at `(x, y)` from normalised RGBA Float (single-plane formats).
    public mutating func setPixel(_ value: SIMD4<Float>, x: Int, y: Int) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)×\(height)")
        precondition(!format.isYCbCr, "set Y′CbCr pixels by converting an RGBA buffer")
        makeUnique()
        var row = [Float](repeating: 0, count: 4 * width)
        row.withUnsafeMutableBufferPointer { readRGBAFloat(row: y, into: $0.baseAddress!) }
        for c in 0..<4 { row[4 * x + c] = value[c] }
        row.withUnsafeBufferPointer { writeRGBAFloat(row: y, from: $0.baseAddress!) }
    }

    // MARK: Whole-buffer component access

    /// Creates a single-plane buffer from tightly packed components (row after row, no padding).
    ///
    /// - Precondition: `T` matches the format's component type (UInt8, UInt16, Float16, Float or UInt32 for
    ///   the packed format) and `components.count == width × height × components per pixel`.
    public init<T: BitwiseCopyable>(
        width: Int, height: Int, format: PixelFormat, components: [T], colorSpace: ColorSpace? = nil
    ) {
        precondition(format.planeCount == 1, "use converted(to:) to make Y′CbCr buffers")
        self.init(width: width, height: height, format: format, colorSpace: colorSpace)
        let rowBytes = width * format.bytesPerPixel()
        precondition(
            components.count * MemoryLayout<T>.stride == rowBytes * height,
            "\(components.count) components of \(T.self) do not fill a \(width)×\(height) \(format) buffer")
        let plane = unsafeSharedMutablePlane()
        components.withUnsafeBytes { raw in
            for y in 0..<height {
                plane.row(y).copyMemory(from: raw.baseAddress! + y * rowBytes, byteCount: rowBytes)
            }
        }
    }

    /// The components of a single-plane buffer, tightly packed row after row.
    public func components<T: BitwiseCopyable>(as type: T.Type) -> [T] {
        precondition(format.planeCount == 1, "components(as:) reads single-plane formats")
        let rowBytes = width * format.bytesPerPixel()
        precondition(rowBytes % MemoryLayout<T>.stride == 0, "\(T.self) does not divide a \(format) row")
        let perRow = rowBytes / MemoryLayout<T>.stride
        return [T](unsafeUninitializedCapacity: perRow * height) { out, count in
            withUnsafePlane { plane in
                let dst = UnsafeMutableRawPointer(out.baseAddress!)
                for y in 0..<height {
                    (dst + y * rowBytes).copyMemory(from: plane.row(y), byteCount: rowBytes)
                }
            }
            count = perRow * height
        }
    }
}
