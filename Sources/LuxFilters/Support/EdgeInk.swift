import LuxPixels
import LuxRender

/// The shared body of the line-drawing filters (LineOverlay, EdgeWork, ComicEffect): black ink where the image's
/// edges are strong, transparent elsewhere.
enum EdgeInk {
    /// Black with alpha `clamp((luma(e) − threshold)·contrast, 0, 1)`, where `e` is the edges of `image` at `intensity`.
    ///
    /// The edges are ``Filters/Edges``; the luma uses the Rec. 709 weights on working-space values. The extent is the
    /// image's.
    static func strokes(of image: Image, intensity: Double, threshold: Double, contrast: Double) -> Image {
        let (t, k) = (Float(threshold), Float(contrast))
        let ink = ColorKernel(name: "edgeInk") { row in
            let p = row.pixels
            for i in 0..<row.count {
                let luma = Luma.red * p.red[i] + Luma.green * p.green[i] + Luma.blue * p.blue[i]
                p.alpha[i] = min(max((luma - t) * k, 0), 1)
                p.red[i] = 0
                p.green[i] = 0
                p.blue[i] = 0
            }
        }
        let edges = image.edges(intensity: intensity)
        return ink.apply(
            extent: edges.extent, inputs: [edges], arguments: "threshold=\(threshold) contrast=\(contrast)")
    }
}
