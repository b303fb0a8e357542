import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

@Suite struct RegistryTests {
    let image = Image(buffer: randomBuffer(width: 20, height: 10, seed: 51))

    @Test("filters are found by name (also Core Image's CI names) and listed by category")
    func lookup() throws {
        let r = FilterRegistry.builtIn
        #expect(r.names.contains("SepiaTone"))
        #expect(try r.descriptor(named: "CISepiaTone").name == "SepiaTone")
        #expect(try r.descriptor(named: "gaussianblur").name == "GaussianBlur")
        #expect(r.names(in: .blur).contains("GaussianBlur") && r.names(in: .blur).contains("BoxBlur"))
        #expect(r.names(in: .generator).contains("RadialGradient"))
        #expect(!r.names(in: .blur).contains("SepiaTone"))
        #expect(r.names(in: .colorAdjustment).contains("ExposureAdjust"))
    }

    @Test("name-based application equals the typed API (the seed's CISepiaTone call)")
    func byName() throws {
        let byName = try image.applyingFilter("CISepiaTone", parameters: ["inputIntensity": 0.8])
        let typed = image.sepiaTone(intensity: 0.8)
        #expect(try renderFloat(byName) == renderFloat(typed))
    }

    @Test("unknown names, unknown parameters and wrong types throw errors that list what is accepted")
    func errors() throws {
        do {
            _ = try image.applyingFilter("SepiaTones")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("did you mean SepiaTone"), "\(error)")
        }
        do {
            _ = try image.applyingFilter("SepiaTone", parameters: ["amount": 1])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "SepiaTone has no parameter 'amount'; it accepts image, intensity")
        }
        do {
            _ = try image.applyingFilter("GaussianBlur", parameters: ["radius": "big"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "GaussianBlur.radius expects number, got string big")
        }
        do {
            _ = try image.applyingFilter("SepiaTone", parameters: ["intensity": 2])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "SepiaTone.intensity = 2 is outside 0…1")
        }
        #expect(throws: FilterError.self) { try FilterRegistry.builtIn.apply("Crop", to: image) }
    }

    @Test("chains parse numbers, vectors, colours, quoted paths and pipes")
    func chainParsing() throws {
        let chain = try FilterChain(
            parsing:
                "SepiaTone intensity=0.8 | GaussianBlur radius=4|Crop rectangle=0,0,10,5 | SourceOverCompositing background='my file.png'"
        )
        #expect(chain.steps.map(\.name) == ["SepiaTone", "GaussianBlur", "Crop", "SourceOverCompositing"])
        #expect(chain.steps[3].arguments == [FilterChain.Argument(key: "background", value: "my file.png")])
        var loaded: [String] = []
        let out = try chain.apply(to: image, registry: .builtIn) { path in
            loaded.append(path)
            return Image(color: .white).cropped(to: Rect(x: 0, y: 0, width: 20, height: 10))
        }
        #expect(loaded == ["my file.png"])
        #expect(out.extent == Rect(x: 0, y: 0, width: 20, height: 10))
        let gradient = try FilterChain(
            parsing: "RadialGradient center=5,5 radius0=1 radius1=4 color0=#ff0000 color1=0,0,1,0.5"
        )
        .apply(to: nil, registry: .builtIn) { _ in .empty }
        #expect(gradient.extent.isInfinite)
    }

    @Test(
        "chain syntax errors say where",
        arguments: ["", "SepiaTone intensity", "intensity=1 | SepiaTone", "Crop rectangle='0,0"])
    func chainErrors(text: String) {
        #expect(throws: FilterError.self) { try FilterChain(parsing: text) }
    }

    @Test("chain values are checked against the parameter type")
    func chainTypes() {
        do {
            _ = try FilterChain(parsing: "Crop rectangle=1,2,3").apply(to: image, registry: .builtIn) { _ in .empty }
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("Crop.rectangle expects rectangle x,y,width,height"), "\(error)")
        }
    }
}
