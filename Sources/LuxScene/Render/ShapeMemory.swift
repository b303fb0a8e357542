import LuxPixels

/// The memory a layer plan's shape kernels point to: the texture levels of image fills and the edges of polygons.
///
/// The kernels hold plain pointers into it, so that a kernel is copied (once per row segment, by each thread
/// painting the layer) without counting references to memory every thread shares; the plan keeps this object, and
/// with it the memory, alive as long as its kernels.
final class ShapeMemory: @unchecked Sendable {
    // @unchecked: filled while the plan is made, on one thread, and only read afterwards.
    private var textures: [PlanarBuffer<Float>] = []
    private var copies: [UnsafeMutableRawPointer] = []

    deinit {
        for p in copies { p.deallocate() }
    }

    /// `level`, kept alive with this object, as a kernel reads it.
    func texture(_ level: PlanarBuffer<Float>) -> ShapeKernel.TextureLevel {
        textures.append(level)
        return ShapeKernel.TextureLevel(level)
    }

    /// A copy of `values` that lives as long as this object.
    func copy<T: BitwiseCopyable>(_ values: [T]) -> UnsafeBufferPointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
        p.initialize(from: values, count: values.count)
        copies.append(UnsafeMutableRawPointer(p))
        return UnsafeBufferPointer(start: p, count: values.count)
    }
}
