extension PixelRect {
    /// The rectangle split into row-major tiles of at most `width`×`height` pixels.
    func tiles(width tw: Int, height th: Int) -> [PixelRect] {
        var out: [PixelRect] = []
        var y = minY
        while y < maxY {
            let h = min(th, maxY - y)
            var x = minX
            while x < maxX {
                let w = min(tw, maxX - x)
                out.append(PixelRect(x: x, y: y, width: w, height: h))
                x += w
            }
            y += h
        }
        return out
    }
}
