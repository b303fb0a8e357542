import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

/// Properties every built-in filter must have, checked on all of them.
@Suite struct ConsistencyTests {
    static let image = Image(buffer: randomBuffer(width: 70, height: 50, seed: 61, colorSpace: .sRGB, alpha: true))
    /// A lit sphere for the filters that take a shading image.
    static let sphere: FilterValue = .image(
        Image.radialGradient(center: Point(x: 8, y: 8), radius0: 0, radius1: 8).cropped(
            to: Rect(x: 0, y: 0, width: 16, height: 16)))

    /// Parameters beyond the defaults that a filter needs to run.
    static func required(_ name: String) -> [String: FilterValue] {
        switch name {
        case "Crop": ["rectangle": [5, 7, 40, 30]]
        case _ where name.hasSuffix("Compositing") || name.hasSuffix("BlendMode"):
            [
                "background": .image(
                    Image(buffer: randomBuffer(width: 50, height: 60, seed: 62, colorSpace: .sRGB, alpha: true)))
            ]
        case "BlendWithMask", "BlendWithAlphaMask":
            [
                "background": .image(Image(color: Color(red: 0.2, green: 0.5, blue: 0.8))),
                "mask": .image(Image.radialGradient(center: Point(x: 30, y: 20), radius0: 5, radius1: 30)),
            ]
        case "AffineTransform": ["transform": .transform(AffineTransform(rotationAngle: 0.2).translatedBy(x: 5, y: -3))]
        case "Convolution3X3": ["weights": [0, -1, 0, -1, 5, -1, 0, -1, 0]]
        case "LanczosScaleTransform": ["scale": 0.6]
        case "ColorMap": ["gradientImage": .image(Image(buffer: randomBuffer(width: 16, height: 1, seed: 5)))]
        case "MaskedVariableBlur":
            ["mask": .image(Image.radialGradient(center: Point(x: 30, y: 20), radius0: 5, radius1: 30))]
        case "EdgePreserveUpsample": ["smallImage": .image(Image(buffer: randomBuffer(width: 9, height: 7, seed: 6)))]
        case "ZoomBlur": ["center": [30, 20]]
        case "DissolveTransition", "BarsSwipeTransition", "SwipeTransition", "ModTransition", "CopyMachineTransition",
            "FlashTransition":
            ["targetImage": .image(Image(buffer: randomBuffer(width: 60, height: 55, seed: 63, colorSpace: .sRGB)))]
        case "AccordionFoldTransition":
            [
                "targetImage": .image(Image(buffer: randomBuffer(width: 60, height: 55, seed: 63, colorSpace: .sRGB))),
                "time": 0.4, "bottomHeight": 10,
            ]
        case "PageCurlTransition", "PageCurlWithShadowTransition":
            [
                "targetImage": .image(Image(buffer: randomBuffer(width: 60, height: 55, seed: 63, colorSpace: .sRGB))),
                "backsideImage": .image(
                    Image(buffer: randomBuffer(width: 70, height: 50, seed: 66, colorSpace: .sRGB))),
                "extent": [0, 0, 70, 50], "time": 0.45, "angle": 0.6, "radius": 9,
            ].merging(name == "PageCurlTransition" ? ["shadingImage": Self.sphere] : [:]) { a, _ in a }
        case "RippleTransition":
            [
                "targetImage": .image(Image(buffer: randomBuffer(width: 60, height: 55, seed: 63, colorSpace: .sRGB))),
                "shadingImage": .image(
                    Image.radialGradient(center: Point(x: 8, y: 8), radius0: 0, radius1: 8).cropped(
                        to: Rect(x: 0, y: 0, width: 16, height: 16))),
            ]
        case "DisintegrateWithMaskTransition":
            [
                "targetImage": .image(Image(buffer: randomBuffer(width: 60, height: 55, seed: 63, colorSpace: .sRGB))),
                "mask": .image(Image.radialGradient(center: Point(x: 30, y: 20), radius0: 5, radius1: 30)),
            ]
        case "DisplacementDistortion":
            [
                "displacementImage": .image(
                    Image(buffer: randomBuffer(width: 70, height: 50, seed: 64, colorSpace: .sRGB)))
            ]
        case "GlassDistortion":
            ["texture": .image(Image(buffer: randomBuffer(width: 30, height: 20, seed: 65, colorSpace: .sRGB)))]
        case "ShadedMaterial":
            [
                "shadingImage": .image(
                    Image.radialGradient(center: Point(x: 16, y: 16), radius0: 0, radius1: 16).cropped(
                        to: Rect(x: 0, y: 0, width: 32, height: 32)))
            ]
        case "PerspectiveTransform", "PerspectiveCorrection", "PerspectiveTransformWithExtent":
            ["topLeft": [5, 3], "topRight": [60, 8], "bottomRight": [66, 45], "bottomLeft": [2, 40]]
        case "NinePartStretched", "NinePartTiled":
            ["breakpoint0": [10, 10], "breakpoint1": [40, 30], "growAmount": [20, 15]]
        default: [:]
        }
    }

    static func output(_ name: String, _ extra: [String: FilterValue] = [:]) throws -> Image {
        var p = required(name)
        for (k, v) in extra { p[k] = v }
        let d = try FilterRegistry.builtIn.descriptor(named: name)
        return try FilterRegistry.builtIn.apply(name, to: d.takesImage ? image : nil, parameters: p)
    }

    @Test("rendering a sub-rectangle equals the same region of a full render", arguments: FilterRegistry.builtIn.names)
    func subRectangle(name: String) throws {
        let out = try Self.output(name)
        let full = out.extent.isInfinite ? Rect(x: -10, y: -10, width: 90, height: 70) : out.extent.integral
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileSize: 32))
        let whole = try context.createBuffer(out, from: full, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        // An interior sub-rectangle (for one-pixel reductions, the pixel itself).
        let dx = min(7, Int(full.width) / 3)
        let dy = min(5, Int(full.height) / 3)
        let sub = Rect(
            x: Int(full.minX) + dx, y: Int(full.minY) + dy, width: min(33, Int(full.width) - dx),
            height: min(21, Int(full.height) - dy))
        let part = try context.createBuffer(out, from: sub, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        let expected = try whole.view(x: dx, y: dy, width: Int(sub.width), height: Int(sub.height)).copy()
        #expect(part.components(as: Float.self) == expected.components(as: Float.self))
    }

    @Test(
        "finite input gives finite output at the limits of every numeric parameter",
        arguments: FilterRegistry.builtIn.names)
    func rangeLimits(name: String) throws {
        let d = try FilterRegistry.builtIn.descriptor(named: name)
        var cases: [[String: FilterValue]] = [[:]]
        for p in d.parameters where p.kind == .number {
            guard let r = p.sliderRange ?? p.allowedRange else { continue }
            cases.append([p.name: .number(r.lowerBound)])
            cases.append([p.name: .number(r.upperBound)])
        }
        for c in cases {
            let out = try Self.output(name, c)
            let rect =
                out.extent.isInfinite || out.extent.width > 400 || out.extent.height > 400
                ? Rect(x: 0, y: 0, width: 40, height: 30) : out.extent.integral
            guard !rect.isEmpty else { continue }
            let values = try RenderContext().createBuffer(
                out, from: rect, format: .rgbaFloat, colorSpace: .extendedLinearSRGB
            ).components(as: Float.self)
            let finite = values.allSatisfy { $0.isFinite }
            #expect(finite, "\(name) \(c)")
        }
    }

    @Test("every filter is documented: summary, parameter summaries, categories")
    func documented() throws {
        for d in FilterRegistry.builtIn.descriptors {
            #expect(!d.summary.isEmpty && !d.displayName.isEmpty, "\(d.name)")
            #expect(d.categories.count > 1, "\(d.name)")
            for p in d.parameters { #expect(!p.summary.isEmpty, "\(d.name).\(p.name)") }
        }
    }
}
