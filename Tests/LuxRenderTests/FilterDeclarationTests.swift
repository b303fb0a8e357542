import LuxColor
import LuxPixels
import LuxRender
import Testing

/// A filter exercising every kind of declared parameter (its output is its input, offset by `offset`).
private struct Probe: DeclaredFilter {
    enum Level: String, CaseIterable, FilterParameterValue {
        case low = "L"
        case high = "H"
    }

    static let declaration = FilterDeclaration<Self>(
        "Probe", coreImageName: "CIProbeFilter", categories: [.stylize], summary: "Tests declarations.",
        .image(\.image),
        .image(\.background, "background", summary: "A second input."),
        .image(\.texture, "texture", coreImageName: "inputTexture", summary: "A third input."),
        .parameter("amount", \.amount, slider: 0...1, allowed: 0...2, unit: .fraction, summary: "A number."),
        .parameter("count", \.count, allowed: 1...9, summary: "An integer."),
        .parameter("flag", \.flag, summary: "A flag."),
        .parameter("center", \.center, summary: "A point."),
        .parameter("area", \.area, required: true, summary: "A required rectangle."),
        .parameter("tint", \.tint, summary: "A colour."),
        .parameter("transform", \.transform, summary: "A transform."),
        .parameter("offset", \.offset, summary: "A vector."),
        .parameter("weights", \.weights, summary: "A vector of three."),
        .parameter("level", \.level, summary: "A choice."),
        .parameter("message", \.message, summary: "Bytes."),
        .parameter("hue", \.hue, unit: .radians, geometry: FilterParameter.Geometry.none, summary: "Not a direction."),
        .parameter("angle", \.angle, unit: .radians, summary: "A direction."),
        .combined(
            \.range,
            [
                FilterParameter("low", kind: .number, summary: "The low end."),
                FilterParameter("high", kind: .number, summary: "The high end."),
            ],
            values: { [.number($0.lowerBound), .number($0.upperBound)] },
            make: { a throws(FilterError) in
                let (lo, hi) = (a.number("low"), a.number("high"))
                guard lo <= hi else {
                    throw .wrongType(filter: "Probe", parameter: "low", expected: "at most high", got: "\(lo)")
                }
                return lo...hi
            }))

    var image = Image.empty
    var background = Image.empty
    var texture = Image.empty
    var amount = 0.5
    var count = 3
    var flag = true
    var center = Point(x: 150, y: 150)
    var area = Rect.zero
    var tint = Color(red: 1, green: 0.5, blue: 0)
    var transform = AffineTransform.identity
    var offset: SIMD2<Double> = [1, 2]
    var weights: [Double] = [1, 2, 3]
    var level = Level.high
    var message: [UInt8] = []
    var hue = 0.0
    var angle = 0.0
    var range = 0.0...1.0

    var outputImage: Image { image.translatedBy(x: offset.x, y: offset.y) }
}

@Suite struct FilterDeclarationTests {
    @Test("the descriptor takes kinds from the property types and defaults from their initial values")
    func descriptor() throws {
        let d = Probe.descriptor
        #expect(d.name == "Probe" && d.displayName == "Probe" && d.coreImageName == "CIProbeFilter")
        #expect(
            d.parameters.map(\.name) == [
                "image", "background", "texture", "amount", "count", "flag", "center", "area", "tint", "transform",
                "offset", "weights", "level", "message", "hue", "angle", "low", "high",
            ])
        func p(_ name: String) throws -> FilterParameter { try #require(d.parameter(named: name)) }
        #expect(try p("image").kind == .image && p("image").defaultValue == nil)
        #expect(try p("amount").kind == .number && p("amount").defaultValue?.description == "0.5")
        #expect(try p("amount").unit == .fraction && p("amount").allowedRange == 0...2)
        #expect(try p("count").kind == .integer && p("count").defaultValue?.description == "3")
        #expect(try p("flag").kind == .boolean)
        #expect(try p("center").kind == .point && p("center").unit == .pixels && p("center").geometry == .position)
        #expect(try p("area").kind == .rect && p("area").defaultValue == nil)
        #expect(try p("tint").kind == .color && p("transform").kind == .transform)
        #expect(try p("transform").geometry == .transform)
        #expect(try p("offset").kind == .vector(count: 2) && p("weights").kind == .vector(count: 3))
        #expect(try p("level").kind == .string(choices: ["L", "H"]) && p("level").defaultValue?.description == "H")
        #expect(try p("message").kind == .data)
        #expect(try p("hue").geometry == FilterParameter.Geometry.none && p("angle").geometry == .angle)
        #expect(try p("low").defaultValue?.description == "0" && p("high").defaultValue?.description == "1")
        #expect(d.takesImage)
    }

    @Test("Core Image keys: images get an Image suffix, other names input + capitalised, overrides win")
    func coreImageKeys() {
        let keys = Probe.descriptor.parameters.map(\.coreImageName)
        #expect(keys.prefix(4) == ["inputImage", "inputBackgroundImage", "inputTexture", "inputAmount"])
    }

    @Test("init(arguments:) sets every property from names, Core Image keys and converted values")
    func arguments() throws {
        let image = Image(color: .white)
        let f = try Probe(parameters: [
            "inputImage": .image(image), "inputBackgroundImage": .image(image), "inputTexture": .image(image),
            "amount": 1.5, "count": 7, "flag": false, "center": [3, 4], "area": [1, 2, 3, 4],
            "tint": [0, 0, 1], "transform": [2, 0, 0, 2, 5, 6], "offset": [7, 8], "weights": [9, 8, 7],
            "level": "L", "message": "hé", "hue": 1, "angle": 2, "low": 0.25, "high": 0.75,
        ])
        #expect(f.image.extent.isInfinite && f.background.extent.isInfinite && f.texture.extent.isInfinite)
        #expect(f.amount == 1.5 && f.count == 7 && !f.flag && f.center == Point(x: 3, y: 4))
        #expect(f.area == Rect(x: 1, y: 2, width: 3, height: 4) && f.tint.blue == 1 && f.tint.red == 0)
        #expect(f.transform == AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 6))
        #expect(f.offset == [7, 8] && f.weights == [9, 8, 7] && f.level == .low)
        #expect(f.message == Array("hé".utf8) && f.hue == 1 && f.angle == 2 && f.range == 0.25...0.75)
    }

    @Test("required, out-of-range, wrongly sized and rejected combined values throw")
    func errors() {
        let image: FilterValue = .image(Image(color: .white))
        let base: [String: FilterValue] = [
            "image": image, "background": image, "texture": image, "area": [0, 0, 1, 1],
        ]
        #expect(throws: FilterError.self) { try Probe(parameters: base.filter { $0.key != "area" }) }
        #expect(throws: FilterError.self) { try Probe(parameters: base.merging(["count": 10]) { $1 }) }
        #expect(throws: FilterError.self) { try Probe(parameters: base.merging(["weights": [1, 2]]) { $1 }) }
        #expect(throws: FilterError.self) { try Probe(parameters: base.merging(["level": "Q"]) { $1 }) }
        #expect(throws: FilterError.self) { try Probe(parameters: base.merging(["low": 2, "high": 1]) { $1 }) }
        #expect(throws: Never.self) { try Probe(parameters: base) }
    }

    @Test("a configured value applies to an image through its main input")
    func applyingValue() throws {
        let image = Image(color: .white).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        let out = image.applyingFilter(Probe { $0.offset = [10, 20] })
        #expect(out.extent == Rect(x: 10, y: 20, width: 4, height: 4))
    }

    @Test("the registry finds a filter by its Core Image name, with or without the CI prefix, in any case")
    func registryNames() throws {
        let r = FilterRegistry([Probe.self])
        for name in ["Probe", "CIProbeFilter", "ciprobefilter", "CIProbe", "probe"] {
            #expect(try r.descriptor(named: name).name == "Probe", "\(name)")
        }
        #expect(throws: FilterError.self) { try r.descriptor(named: "ProbeFilter") }
    }

    @Test("display names space words and keep acronyms together")
    func displayNames() {
        #expect(FilterDescriptor.displayName(for: "ColorDodgeBlendMode") == "Color Dodge Blend Mode")
        #expect(FilterDescriptor.displayName(for: "CMYKHalftone") == "CMYK Halftone")
        #expect(FilterDescriptor.displayName(for: "QRCodeGenerator") == "QR Code Generator")
    }
}
