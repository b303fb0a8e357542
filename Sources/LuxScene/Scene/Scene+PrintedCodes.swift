extension Scene {
    /// A print of a code (or any image) on the ``printedCodes(_:motion:light:)`` board: the image and the rectangle
    /// it covers, in scene units (the frame is 1 wide and 0.75 high, y down).
    public struct Print: Sendable {
        /// The printed image (black modules on white for a code).
        public var image: SceneImage
        /// The top-left corner.
        public var origin: SIMD2<Double>
        /// The size.
        public var size: SIMD2<Double>

        /// Creates a print.
        public init(_ image: SceneImage, origin: SIMD2<Double>, size: SIMD2<Double>) {
            self.image = image
            self.origin = origin
            self.size = size
        }
    }

    /// Prints pinned to a mid-grey board 0.5 m away, evenly lit: the scene for detecting machine-readable codes
    /// during capture (make the prints with LuxCapture's `Scene.Print.code(_:_:origin:size:modulePixels:margin:)`, or
    /// from Lux's barcode generators with each module several texture pixels wide so the texture's filtering keeps the
    /// edges).
    public static func printedCodes(
        _ prints: [Print], motion: CameraMotion = .handheld, light: Light = Light(.d65, lux: 800)
    ) -> Scene {
        var shapes = [Shape(.everywhere, color: SurfaceColor(reflectance: 0.3))]
        for p in prints {
            shapes.append(
                Shape(
                    .rectangle(origin: p.origin, size: p.size),
                    fill: .image(p.image, origin: p.origin, size: p.size, depthRange: nil)))
        }
        return Scene(
            name: "printed-codes", layers: [SceneLayer(name: "board", distance: 0.5, shapes: shapes)], light: light,
            cameraMotion: motion)
    }
}
