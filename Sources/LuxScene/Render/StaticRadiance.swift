import LuxColor
import LuxPixels
import RealModule

/// The radiance of a scene's still layers as a camera at rest sees them (no shake, no pan), defocused for
/// one lens state, on the output pixel grid plus a margin, at half precision.
///
/// Camera rotation moves every layer of a scene alike (there is no parallax in a rotation), and the thin-lens
/// blur is isotropic, so it commutes with that motion: a frame taken while the camera shakes or pans is this
/// image resampled along the camera's path over the exposure (see ``ExposureRadiance``). Only the layers in
/// front of, and including, the first moving layer are rendered again for each frame.
package final class StaticRadiance: Sendable {
    /// The still layers (scene indices `0..<layerCount`), radiance × `scale`, three planes.
    let image: PlanarBuffer<Float16>?
    /// Scene position of the top-left corner of grid pixel (0, 0).
    let gridOrigin: SIMD2<Double>
    /// Scene units per grid pixel (x, y).
    let pixelSize: SIMD2<Double>
    /// Grid size in pixels.
    let gridWidth: Int
    let gridHeight: Int
    /// How many layers (from the back) the image holds.
    let layerCount: Int
    /// Stored values (here and in the moving layers' overlay) are radiance × scale: the brightest light's white is about 1.
    let scale: Float

    /// Renders layers `0..<layerCount` of `renderer`'s scene at rest over a grid of `request`'s pixel size whose pixel
    /// (0, 0) sits at output pixel `offset` (so it may extend beyond the request's region).
    ///
    /// `recycling` is a radiance no longer used by anyone, whose memory may be reused.
    init(
        renderer: SceneRenderer, request: RenderRequest, layerCount: Int, offset: SIMD2<Int>, gridWidth: Int,
        gridHeight: Int, threads: Int, recycling: StaticRadiance? = nil
    ) {
        let s = SIMD2(request.sceneUnitsPerPixel, request.regionSize.y / Double(request.height))
        pixelSize = s
        gridOrigin = request.regionOrigin + SIMD2(Double(offset.x), Double(offset.y)) * s
        self.gridWidth = gridWidth
        self.gridHeight = gridHeight
        self.layerCount = layerCount
        let scene = renderer.scene
        // The brightest light of every layer, moving ones included: the overlay of moving layers is stored at the same
        // scale, and a sliding camera puts every layer there (with no still layer at all).
        var brightest = 0.0
        for layer in scene.layers {
            var e = scene.light(for: layer).illuminance
            if let flash = request.flash { e += flash.illuminance(atDistance: layer.distance) }
            brightest = max(brightest, e)
        }
        let scale = Float(Double.pi / max(brightest, 1e-6))
        self.scale = scale
        guard layerCount > 0 else {
            image = nil
            return
        }
        var grid = request
        grid.regionOrigin = gridOrigin
        grid.regionSize = SIMD2(Double(gridWidth), Double(gridHeight)) * s
        grid.width = gridWidth
        grid.height = gridHeight
        let plans = renderer.layerPlans(grid, layers: Array(0..<layerCount), atRest: true).compactMap { $0 }
        let image = PlanarBuffer<Float16>(
            width: gridWidth, height: gridHeight, planes: 3, zeroed: false, recycling: recycling?.image)
        self.image = image
        let w = gridWidth
        // The whole grid is rendered before any of it is read, and it is larger than the caches: streaming stores.
        SceneRenderer.renderBands(plans, width: w, height: gridHeight, withAlpha: false, threads: threads) { y, row in
            for c in 0..<3 {
                image.store(plane: c, row: y, from: row + c * w, scaledBy: scale, count: w, streaming: true)
            }
        }
    }

    /// Bytes held.
    package var byteCount: Int { image?.byteCount ?? 0 }

    /// Whether grid pixels `x0..<x1` × `y0..<y1` lie inside the grid.
    func covers(x0: Int, y0: Int, x1: Int, y1: Int) -> Bool {
        x0 >= 0 && y0 >= 0 && x1 <= gridWidth && y1 <= gridHeight
    }
}
