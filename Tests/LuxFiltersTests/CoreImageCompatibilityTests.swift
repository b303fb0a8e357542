import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

/// Code written for Core Image works: its filter names, its parameter keys, and its y-up coordinates.
@Suite struct CoreImageCompatibilityTests {
    let image = Image(buffer: randomBuffer(width: 40, height: 30, seed: 7))
    let background = Image(buffer: randomBuffer(width: 40, height: 30, seed: 8))

    @Test("the seed's call: CILinearDodgeBlendMode with inputBackgroundImage")
    func seedCall() throws {
        let byName = try image.applyingFilter(
            "CILinearDodgeBlendMode", parameters: ["inputBackgroundImage": .image(background)])
        let typed = image.blended(onto: background, mode: .linearDodge)
        #expect(try renderFloat(byName) == renderFloat(typed))
    }

    @Test("CIEdgePreserveUpsampleFilter resolves and takes inputSmallImage")
    func edgePreserveUpsample() throws {
        let small = Image(buffer: randomBuffer(width: 6, height: 7, seed: 9))
        let guide = Image(buffer: randomBuffer(width: 24, height: 28, seed: 10))
        let byName = try guide.applyingFilter(
            "CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(small), "inputLumaSigma": 0.2])
        let typed = try guide.applyingFilter(
            "EdgePreserveUpsample", parameters: ["smallImage": .image(small), "lumaSigma": 0.2])
        #expect(try renderFloat(byName) == renderFloat(typed))
    }

    @Test(
        "image inputs answer to Core Image's keys",
        arguments: [
            ("BlendWithMask", "inputMaskImage", "mask"), ("BlendWithAlphaMask", "inputBackgroundImage", "background"),
            ("MaskedVariableBlur", "inputMask", "mask"), ("ColorMap", "inputGradientImage", "gradientImage"),
            ("SourceOverCompositing", "inputBackgroundImage", "background"),
            ("EdgePreserveUpsample", "inputSmallImage", "smallImage"), ("ExposureAdjust", "inputEV", "ev"),
        ])
    func imageKeys(filter: String, key: String, name: String) throws {
        let d = try FilterRegistry.builtIn.descriptor(named: "CI" + filter)
        #expect(d.parameters.first { $0.coreImageName == key }?.name == name)
    }

    @Test("every built-in filter's Core Image name and keys find it and its parameters")
    func everyName() throws {
        let r = FilterRegistry.builtIn
        for d in r.descriptors {
            #expect(try r.descriptor(named: d.coreImageName).name == d.name)
            for p in d.parameters {
                #expect(p.coreImageName.hasPrefix("input"), "\(d.name).\(p.name)")
            }
            #expect(Set(d.parameters.map(\.coreImageName)).count == d.parameters.count, "\(d.name)")
        }
    }

    /// Core Image's picture of `filter` with `parameters`: the filter run by Lux, with the same numbers, on the
    /// image turned upside down (Core Image's y-up frame), turned back.
    func coreImagePicture(_ filter: String, _ parameters: [String: FilterValue], of image: Image) throws -> Image {
        let h = image.extent.maxY + image.extent.minY
        let flip = AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        return try image.transformed(by: flip, sampling: .nearest).applyingFilter(filter, parameters: parameters)
            .transformed(by: flip, sampling: .nearest)
    }

    static let coordinateCases: [(String, [String: FilterValue])] = [
        ("VignetteEffect", ["inputCenter": [12, 5], "inputRadius": 10]),
        ("LineScreen", ["inputCenter": [3, 20], "inputAngle": 0.7, "inputWidth": 5]),
        ("MotionBlur", ["inputRadius": 4, "inputAngle": 0.5]),
        ("Crop", ["inputRectangle": [5, 4, 20, 10]]),
        ("AffineTransform", ["inputTransform": [0.8, 0.3, -0.2, 0.9, 4, -3]]),
    ]

    @Test(
        "parameters in Core Image coordinates give Core Image's picture (positions, angles, rectangles, transforms)",
        arguments: coordinateCases)
    func coordinates(filter: String, parameters: [String: FilterValue]) throws {
        let ported = try image.applyingFilter(filter, coreImageParameters: parameters)
        let expected = try coreImagePicture(filter, parameters, of: image)
        #expect(ported.extent == expected.extent)
        let a = try renderFloat(ported, ported.extent.intersection(Rect(x: -10, y: -10, width: 60, height: 50)))
        let b = try renderFloat(expected, ported.extent.intersection(Rect(x: -10, y: -10, width: 60, height: 50)))
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-4 }, "\(filter)")
    }

    @Test("named corners keep their meaning: Core Image's corners of the image's own extent leave it unchanged")
    func corners() throws {
        // In Core Image the top-left corner of a 40 × 30 image is (0, 30).
        let corners: [String: FilterValue] = [
            "inputTopLeft": [0, 30], "inputTopRight": [40, 30], "inputBottomRight": [40, 0], "inputBottomLeft": [0, 0],
        ]
        let ported = try image.applyingFilter("CIPerspectiveTransform", coreImageParameters: corners)
        #expect(ported.extent == image.extent)
        let a = try renderFloat(ported)
        let b = try renderFloat(image)
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-4 })
        // The same numbers read as Lux coordinates turn the picture upside down.
        let raw = try renderFloat(image.applyingFilter("CIPerspectiveTransform", parameters: corners))
        #expect(abs(raw[0] - b[4 * 40 * 29]) < 1e-4)
    }

    @Test("the helper reflects points, rectangles, angles and transforms within the extent, and undoes itself")
    func helper() {
        let c = CoreImageCoordinates(extent: Rect(x: 0, y: 10, width: 100, height: 50))
        #expect(c.point(Point(x: 3, y: 10)) == Point(x: 3, y: 60))
        #expect(c.rect(Rect(x: 1, y: 10, width: 5, height: 20)) == Rect(x: 1, y: 40, width: 5, height: 20))
        #expect(c.angle(0.3) == -0.3)
        let t = AffineTransform(a: 1, b: 0.5, c: 0, d: 1, tx: 2, ty: 3)
        #expect(c.transform(c.transform(t)) == t)
        let p = Point(x: 7, y: 22)
        let ciImage = t.apply(to: c.point(p))
        #expect(c.transform(t).apply(to: p) == c.point(ciImage))
    }

    @Test("Core Image coordinates on an image without a bottom edge are a typed error")
    func infinite() {
        #expect(throws: FilterError.self) {
            try Image(color: .white).applyingFilter("CIVignetteEffect", coreImageParameters: ["inputCenter": [1, 2]])
        }
    }
}
