import LuxRender

/// The per-pixel kernel of ``Filters/MaximumComponent`` and ``Filters/MinimumComponent``: gray set to the
/// largest or smallest of red, green and blue (premultiplied, since scaling by alpha keeps the order).
enum ComponentExtreme {
    static func apply(_ image: Image, maximum: Bool) -> Image {
        let kernel = ColorKernel(
            name: maximum ? "maximumComponent" : "minimumComponent", alphaHandling: .premultiplied, preservesAlpha: true
        ) { row in
            let p = row.pixels
            let rr = p.red
            let gg = p.green
            let bb = p.blue
            if maximum {
                for i in 0..<row.count {
                    let v = max(rr[i], max(gg[i], bb[i]))
                    rr[i] = v
                    gg[i] = v
                    bb[i] = v
                }
            } else {
                for i in 0..<row.count {
                    let v = min(rr[i], min(gg[i], bb[i]))
                    rr[i] = v
                    gg[i] = v
                    bb[i] = v
                }
            }
        }
        return image.applying(kernel)
    }
}
