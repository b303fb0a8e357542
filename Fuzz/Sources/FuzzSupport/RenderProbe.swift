public import LuxPixels
public import LuxRender

extension Fuzz {
    /// A 16 × 16 gradient that filter harnesses run their graphs on.
    public static let renderInput = Image(buffer: Seeds.gradient(width: 16, height: 16))

    /// Renders the 4 × 4 pixels at the origin of `image` on one thread without caching (errors are ignored: the
    /// harness only checks that rendering neither crashes nor hangs).
    public static func renderCorner(_ image: Image) {
        _ = try? renderContext.createBuffer(image, from: Rect(x: 0, y: 0, width: 4, height: 4))
    }

    private static let renderContext = RenderContext(
        options: RenderOptions(cacheIntermediates: false, threadCount: 1, tileSize: 64))
}
