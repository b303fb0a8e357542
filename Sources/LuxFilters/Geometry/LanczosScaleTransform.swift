import LuxPixels
public import LuxRender

extension Filters {
    /// Scales with a Lanczos-3 filter (high-quality downscaling and upscaling).
    ///
    /// Edges are extended, so the result has no transparent border; its extent is the input's scaled by
    /// `scale·aspectRatio` horizontally and `scale` vertically.
    public struct LanczosScaleTransform: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "LanczosScaleTransform", categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Scales with a Lanczos-3 resampling filter.", .image(\.image),
            .parameter(
                "scale", \.scale, slider: 0.05...1.5, allowed: 0.0001...100, unit: .scale,
                summary: "The vertical scale factor."),
            .parameter(
                "aspectRatio", \.aspectRatio, slider: 0.05...2, allowed: 0.0001...100, unit: .scale,
                summary: "Horizontal scale relative to vertical."))

        public var image: Image = .empty
        public var scale: Double = 1
        public var aspectRatio: Double = 1

        public init() {}

        public var outputImage: Image {
            let sx = scale * aspectRatio
            let sy = scale
            let e = image.extent
            if sx == 1 && sy == 1 { return image }
            guard !e.isInfinite, !e.isEmpty else {
                return image.transformed(by: LuxPixels.AffineTransform(scaleX: sx, y: sy))
            }
            // Whole pixels, as resizers produce (the size rounds to nearest, at least one pixel).
            let out = Rect(
                x: (e.minX * sx).rounded(), y: (e.minY * sy).rounded(),
                width: max((e.width * sx).rounded(), 1), height: max((e.height * sy).rounded(), 1))
            let horizontal = LanczosAxis(scale: sx, source: Int(e.minX)..<Int(e.maxX))
            let vertical = LanczosAxis(scale: sy, source: Int(e.minY)..<Int(e.maxY))
            let processor = ImageProcessor(
                description: "lanczos3", argumentDigest: "sx=\(sx) sy=\(sy)", inputFormat: nil,
                outputFormat: .rgbaFloat,
                roi: { _, rect in
                    let xs = horizontal.sourceRange(Int(rect.minX), Int(rect.maxX))
                    let ys = vertical.sourceRange(Int(rect.minY), Int(rect.maxY))
                    return Rect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
                },
                process: { inputs, output in
                    LanczosScaleTransform.resample(inputs[0], output, horizontal, vertical)
                }
            )
            return processor.apply(to: [image], extent: out)
        }

        static func resample(
            _ input: ImageProcessorInput, _ output: ImageProcessorOutput, _ hx: LanczosAxis, _ vy: LanczosAxis
        ) {
            let x0 = Int(output.region.minX)
            let y0 = Int(output.region.minY)
            let w = output.width
            let h = output.height
            let inX = Int(input.region.minX)
            let inY = Int(input.region.minY)
            let inW = input.width
            let (firstX, weightsX) = hx.table(x0, w)
            let (firstY, weightsY) = vy.table(y0, h)
            // Vertical first (it reduces rows before the costlier per-pixel horizontal pass). Input rows are
            // converted to float once each, into a ring of `taps + 1` rows: consecutive output rows read
            // overlapping, advancing windows.
            let tmpRow = 4 * inW
            let ringRows = vy.taps + 1
            let tmp = output.scratch(byteCount: 4 * tmpRow * (h + ringRows)).assumingMemoryBound(to: Float.self)
            let ring = tmp + tmpRow * h
            var loaded = -1  // last input row (0-based) converted into the ring
            let rowPointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: vy.taps)
            defer { rowPointers.deallocate() }
            weightsY.withUnsafeBufferPointer { wy in
                for y in 0..<h {
                    let first = firstY[y] - inY
                    while loaded < first + vy.taps - 1 {
                        loaded += 1
                        ProcessorRows.loadInterleaved(input, row: loaded, into: ring + (loaded % ringRows) * tmpRow)
                    }
                    for t in 0..<vy.taps { rowPointers[t] = UnsafePointer(ring + ((first + t) % ringRows) * tmpRow) }
                    weightedSum(
                        rows: rowPointers, weights: wy.baseAddress! + y * vy.taps, taps: vy.taps,
                        into: tmp + y * tmpRow, count: tmpRow)
                }
            }
            let offsets = firstX.map { $0 - inX }
            offsets.withUnsafeBufferPointer { off in
                weightsX.withUnsafeBufferPointer { wx in
                    for y in 0..<h {
                        weightedPixelSum(
                            tmp + y * tmpRow, first: off.baseAddress!, weights: wx.baseAddress!, taps: hx.taps,
                            into: output.row(y, as: Float.self), count: w)
                    }
                }
            }
        }
    }
}

extension Image {
    /// The image scaled with a Lanczos-3 filter (see ``Filters/LanczosScaleTransform``).
    public func lanczosScaleTransform(scale: Double, aspectRatio: Double = 1) -> Image {
        applyingFilter(
            Filters.LanczosScaleTransform {
                $0.scale = scale
                $0.aspectRatio = aspectRatio
            })
    }
}
