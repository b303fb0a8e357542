import LuxColor
package import LuxPixels
import RealModule

/// Renders a ``Scene``'s radiance onto a pixel grid: layers back to front, each rasterised with
/// anti-aliased coverage, integrated over the exposure for motion blur, defocused by the thin-lens blur of
/// its distance, and composited.
///
/// Output units: the detector's response to each layer's reflectance × the luminance of a white under the
/// layer's light (`lux/π` cd/m²), plus the flash's contribution falling off with distance². For
/// ``SpectralResponse/cie1931`` the output is XYZ with Y in cd/m².
///
/// Work is split into row bands (and column strips for vertical blur passes); every output value depends only
/// on its inputs, so results are bit-identical for any thread count.
public struct SceneRenderer: Sendable {
    /// The scene.
    public let scene: Scene

    /// Creates a renderer.
    public init(scene: Scene) { self.scene = scene }

    /// Renders `request`.
    ///
    /// - Throws: ``SceneError/invalidRequest(_:)`` for an empty or absurd size.
    /// - Complexity: O(pixels × layers) plus the area of each shape; blur cost does not depend on its radius.
    public func render(_ request: RenderRequest, threads: Int? = nil) throws(SceneError)
        -> RadianceImage
    {
        guard request.width > 0, request.height > 0, request.width <= 32768, request.height <= 32768 else {
            throw .invalidRequest("size \(request.width)×\(request.height) must be 1…32768 on each side")
        }
        guard request.regionSize.x > 0, request.regionSize.y > 0 else {
            throw .invalidRequest("the region must have a positive size")
        }
        let out = PlanarBuffer<Float>(width: request.width, height: request.height, planes: 3)
        render(request, into: out, threads: threads ?? Parallel.defaultThreadCount)
        return RadianceImage(storage: out)
    }

    package func render(_ request: RenderRequest, into out: PlanarBuffer<Float>, threads: Int) {
        let plans = layerPlans(request, layers: Array(scene.layers.indices), atRest: false).compactMap { $0 }
        let w = request.width
        Self.renderBands(plans, width: w, height: request.height, withAlpha: false, threads: threads) { y, row in
            for c in 0..<3 { out.row(c, y).update(from: row + c * w, count: w) }
        }
    }

    /// Renders the composite of `plans` over a `width × height` grid in fixed bands split across threads,
    /// handing each finished row to `sink` (planes `width` apart).
    static func renderBands(
        _ plans: [LayerPlan], width: Int, height: Int, withAlpha: Bool, threads: Int,
        sink: @Sendable (Int, UnsafePointer<Float>) -> Void
    ) {
        let support = plans.map(\.gridSupport).max() ?? 0
        let bandHeight = BandCompositor.bandHeight(height: height, support: support)
        let bands = (height + bandHeight - 1) / bandHeight
        Parallel.forEachBand(bands, threads: threads, minimumBand: 1, bandsPerThread: 8) { range in
            for b in range {
                let rows = (b * bandHeight)..<min(height, (b + 1) * bandHeight)
                BandCompositor.render(plans, width: width, band: rows, withAlpha: withAlpha, sink: sink)
            }
        }
    }
}
