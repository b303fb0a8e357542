public import LuxRender

/// The mask-driven blends: ``Filters/BlendWithMask`` and ``Filters/BlendWithAlphaMask``.
enum MaskBlend {
    /// `background + (image − background)·m`, premultiplied, with `m` the mask's straight luma (clamped to 0…1)
    /// or its alpha. The extent is the union of image and background.
    static func apply(_ image: Image, background: Image, mask: Image, useAlpha: Bool) -> Image {
        let kernel = ColorKernel(name: useAlpha ? "blendWithAlphaMask" : "blendWithMask", inputCount: 3) { row in
            let s = row.pixels
            let d = row.input(1)
            let m = row.input(2)
            let n = row.count
            for i in 0..<n {
                let a = m.alpha[i]
                let inv: Float = a > 0 ? 1 / a : 0
                let luma = clampFloat((Luma.red * m.red[i] + Luma.green * m.green[i] + Luma.blue * m.blue[i]) * inv, 0, 1)
                let k = useAlpha ? a : luma
                s.red[i] = d.red[i] + (s.red[i] - d.red[i]) * k
                s.green[i] = d.green[i] + (s.green[i] - d.green[i]) * k
                s.blue[i] = d.blue[i] + (s.blue[i] - d.blue[i]) * k
                s.alpha[i] = d.alpha[i] + (s.alpha[i] - d.alpha[i]) * k
            }
        }
        return kernel.apply(extent: image.extent.union(background.extent), inputs: [image, background, mask])
    }

    static let parameters: [FilterParameter] = [
        .image(summary: "Shown where the mask is 1."),
        .image("background", summary: "Shown where the mask is 0."),
        .image("mask", summary: "The mask."),
    ]
}

extension Filters {
    /// Shows the image where the mask is white and the background where it is black, blending in between by the
    /// mask's luma (straight, working space).
    public struct BlendWithMask: Filter {
        public static let descriptor = FilterDescriptor(
            name: "BlendWithMask", displayName: "Blend with Mask",
            categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
            summary: "Blends the image and the background by a grayscale mask.", parameters: MaskBlend.parameters)

        public var image: Image
        public var background: Image
        public var mask: Image

        public init(image: Image, background: Image, mask: Image) {
            self.image = image
            self.background = background
            self.mask = mask
        }

        public init(arguments a: FilterArguments) {
            self.init(image: a.image(), background: a.image("background"), mask: a.image("mask"))
        }

        public var outputImage: Image { MaskBlend.apply(image, background: background, mask: mask, useAlpha: false) }
    }
}

extension Image {
    /// This image over `background` where `mask` is white (see ``Filters/BlendWithMask``).
    public func blended(with background: Image, mask: Image) -> Image {
        MaskBlend.apply(self, background: background, mask: mask, useAlpha: false)
    }
}
