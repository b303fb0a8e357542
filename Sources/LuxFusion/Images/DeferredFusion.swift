import LuxColor
import LuxPixels
import LuxRender
import Synchronization

/// The pixels of a whole-frame fusion, computed once when a render first asks for any of them.
///
/// Fusion needs every pixel of every input (pyramids, alignment, noise statistics), so the `Image` operations of
/// LuxFusion render their inputs in full, run the buffer operation, and serve tiles from the result. Nothing runs when
/// the recipe is built; the first tile a render requests triggers the work (on all cores), later tiles and later
/// renders copy from the kept result. Other workers asking meanwhile wait for it.
final class DeferredFusion: ImageProvider, Sendable {
    let width: Int
    let height: Int
    let format: PixelFormat
    let colorSpace: ColorSpace?
    let identifier: String
    private let compute: @Sendable () throws -> PixelBuffer
    private let state = Mutex<Result<PixelBuffer, any Error>?>(nil)
    /// Numbers the instances: two recipes with the same settings but different inputs must not share cache entries.
    private static let instances = Atomic<Int>(0)

    /// - Parameters:
    ///   - format: The format `compute` returns (one of ``ImageProcessor/supportedFormats``).
    ///   - identifier: Describes the operation and its settings (printed in render trees).
    init(
        width: Int, height: Int, format: PixelFormat, colorSpace: ColorSpace?, identifier: String,
        compute: @escaping @Sendable () throws -> PixelBuffer
    ) {
        self.width = width
        self.height = height
        self.format = format
        self.colorSpace = colorSpace
        self.identifier = "\(identifier) #\(Self.instances.add(1, ordering: .relaxed).newValue)"
        self.compute = compute
    }

    /// The result, computing it on first use (a failure is kept and rethrown to every later request).
    func result() throws -> PixelBuffer {
        try state.withLock { (s: inout Result<PixelBuffer, any Error>?) throws -> PixelBuffer in
            if s == nil {
                s = Result { try compute() }
            }
            return try s!.get()
        }
    }

    func provide(_ output: ImageProcessorOutput) throws {
        let buffer = try result()
        precondition(buffer.format == output.format && buffer.width == width && buffer.height == height)
        let x0 = Int(output.region.minX)
        let y0 = Int(output.region.minY)
        let bytes = output.width * format.bytesPerPixel()
        let offset = x0 * format.bytesPerPixel()
        buffer.withUnsafePlane { plane in
            for j in 0..<output.height {
                output.row(j, as: UInt8.self).update(from: plane.row(y0 + j, as: UInt8.self) + offset, count: bytes)
            }
        }
    }
}

/// Checks and renders the `Image` inputs of a fusion operation.
enum FusionImages {
    /// The common integral extent of `images` (at least 16 pixels a side).
    static func extent(of images: [Image]) throws(FusionError) -> Rect {
        guard let first = images.first else { throw .notEnoughFrames(count: 0, minimum: 1) }
        let e = first.extent
        guard !e.isInfinite, !e.isEmpty, e == e.integral else {
            throw .invalidParameter(
                name: "images[0].extent", value: "\(e)", allowed: "a finite extent with whole-pixel edges (crop it)")
        }
        for (i, image) in images.enumerated().dropFirst() where image.extent != e {
            throw .mismatchedFrame(index: i, expected: "extent \(e)", found: "extent \(image.extent)")
        }
        guard e.width >= Double(FusionInput.minimumSide), e.height >= Double(FusionInput.minimumSide) else {
            throw .imageTooSmall(width: Int(e.width), height: Int(e.height), minimum: FusionInput.minimumSide)
        }
        return e
    }

    /// Throws unless `space` is a linear RGB space (burst and HDR merges need values proportional to light).
    static func requireLinear(_ space: ColorSpace) throws(FusionError) {
        guard space.isLinear, space.matrixToXYZ != nil else {
            throw .invalidParameter(
                name: "colorSpace", value: space.name, allowed: "a linear RGB space such as .extendedLinearSRGB")
        }
    }

    /// Renders each image over `extent` into a buffer of `format` in `colorSpace` (one at a time, all cores).
    static func render(_ images: [Image], extent: Rect, format: PixelFormat, colorSpace: ColorSpace) throws
        -> [PixelBuffer]
    {
        let context = RenderContext(options: RenderOptions(cacheIntermediates: false))
        return try images.map { image in
            var b = try context.createBuffer(image, from: extent, format: format, colorSpace: colorSpace)
            b.isPremultiplied = false
            return b
        }
    }

    /// An image of `provider`'s pixels placed at `extent`'s origin.
    static func image(_ provider: DeferredFusion, at extent: Rect) -> Image {
        let image = Image(provider: provider)
        return extent.minX == 0 && extent.minY == 0 ? image : image.translatedBy(x: extent.minX, y: extent.minY)
    }
}
