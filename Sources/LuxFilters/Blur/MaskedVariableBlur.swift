public import LuxRender

extension Filters {
    /// Blurs by an amount that varies over the image: where the mask is white the image gets a Gaussian blur of
    /// standard deviation `radius`, where it is black none, in between proportionally.
    ///
    /// The image is blurred at four levels (`radius·k/4`, k = 1…4, edges repeated) and each pixel blends the two
    /// levels around `4·m`, `m` the mask's luma (straight, working space, clamped to 0…1) — four fixed blurs
    /// whatever the mask. The extent is the input's.
    public struct MaskedVariableBlur: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "MaskedVariableBlur", categories: [.blur, .stillImage, .video, .highDynamicRange],
            summary: "Blurs by an amount the mask sets per pixel.", .image(\.image),
            .image(\.mask, "mask", coreImageName: "inputMask", summary: "White: full blur; black: none."),
            .parameter(
                "radius", \.radius, slider: 0...100, allowed: 0...1000, unit: .pixels,
                summary: "The standard deviation where the mask is white."))

        public var image: Image = .empty
        public var mask: Image = .empty
        public var radius: Double = 5

        public init() {}

        public var outputImage: Image {
            if radius < 0.25 { return image }
            let e = image.extent
            let clamped = image.clampedToExtent()
            let levels = (1...4).map { k in clamped.gaussianBlur(radius: radius * Double(k) / 4).cropped(to: e) }
            let kernel = ColorKernel(name: "maskedVariableBlur", inputCount: 6) { row in
                let l0 = row.pixels
                let b1 = row.input(1)
                let b2 = row.input(2)
                let b3 = row.input(3)
                let b4 = row.input(4)
                let m = row.input(5)
                for i in 0..<row.count {
                    let a = m.alpha[i]
                    let inv: Float = a > 0 ? 1 / a : 0
                    let y = clampFloat(
                        (Luma.red * m.red[i] + Luma.green * m.green[i] + Luma.blue * m.blue[i]) * inv, 0, 1)
                    let t = y * 4
                    // Blend weights of the five levels (0 = the image itself): a hat function around t.
                    let w0 = clampFloat(1 - t, 0, 1)
                    let w1 = clampFloat(1 - abs(t - 1), 0, 1)
                    let w2 = clampFloat(1 - abs(t - 2), 0, 1)
                    let w3 = clampFloat(1 - abs(t - 3), 0, 1)
                    let w4 = clampFloat(t - 3, 0, 1)
                    l0.red[i] = w0 * l0.red[i] + w1 * b1.red[i] + w2 * b2.red[i] + w3 * b3.red[i] + w4 * b4.red[i]
                    l0.green[i] =
                        w0 * l0.green[i] + w1 * b1.green[i] + w2 * b2.green[i] + w3 * b3.green[i] + w4 * b4.green[i]
                    l0.blue[i] = w0 * l0.blue[i] + w1 * b1.blue[i] + w2 * b2.blue[i] + w3 * b3.blue[i] + w4 * b4.blue[i]
                    l0.alpha[i] =
                        w0 * l0.alpha[i] + w1 * b1.alpha[i] + w2 * b2.alpha[i] + w3 * b3.alpha[i] + w4 * b4.alpha[i]
                }
            }
            return kernel.apply(extent: e, inputs: [image] + levels + [mask], arguments: "radius=\(radius)")
        }
    }
}

extension Image {
    /// The image blurred by an amount `mask` sets per pixel (see ``Filters/MaskedVariableBlur``).
    public func maskedVariableBlur(mask: Image, radius: Double = 5) -> Image {
        applyingFilter(
            Filters.MaskedVariableBlur {
                $0.mask = mask
                $0.radius = radius
            })
    }
}
