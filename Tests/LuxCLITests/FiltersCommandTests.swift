import Foundation
import LuxTestSupport
import Testing

/// `lux filters`: the catalogue by category, one filter's parameters, and the errors.
@Suite struct FiltersCommandTests {
    @Test("every filter is listed once per kind category, with the headers the categories name", .needsLux)
    func listing() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["filters"])
        #expect(r.status == 0, "\(r.errorText)")
        let lines = r.text.split(separator: "\n").map(String.init)
        let headers = lines.filter { !$0.hasPrefix(" ") }
        #expect(headers.allSatisfy { $0.hasSuffix(":") })
        // Usage categories (StillImage, Video, HighDynamicRange, BuiltIn) are not headers: they would repeat everything.
        for usage in ["StillImage:", "Video:", "HighDynamicRange:", "BuiltIn:"] { #expect(!headers.contains(usage)) }
        #expect(headers.contains("Blur:") && headers.contains("Generator:") && headers.contains("CompositeOperation:"))
        // Under "Blur:", the blurs in alphabetical order, each with its summary.
        let blur = lines.drop { $0 != "Blur:" }.dropFirst().prefix { $0.hasPrefix("  ") }
        let names = blur.map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0] }
        #expect(names.contains("GaussianBlur") && names.contains("BoxBlur") && !names.contains("SepiaTone"))
        #expect(names == names.sorted())
        let gaussian = try #require(blur.first { $0.contains("GaussianBlur ") })
        #expect(gaussian.hasSuffix("Blurs with a Gaussian distribution."))
    }

    @Test("one filter by its Core Image name: parameters with keys, types, defaults, ranges and units", .needsLux)
    func describe() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["filters", "CIGaussianBlur"])
        #expect(r.status == 0, "\(r.errorText)")
        #expect(
            r.text == """
                GaussianBlur (Core Image: CIGaussianBlur) — Blurs with a Gaussian distribution.
                  image (inputImage): image, required — The image to process.
                  radius (inputRadius): number in pixels, default 10, slider 0…100, allowed 0…1000 — The standard \
                deviation in pixels.

                """)
    }

    @Test("--category filters the listing, case-insensitively", .needsLux)
    func category() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["filters", "--category", "generator"])
        #expect(r.status == 0)
        let lines = r.text.split(separator: "\n")
        #expect(lines.first == "Generator:" && lines.dropFirst().allSatisfy { $0.hasPrefix("  ") })
        #expect(lines.contains { $0.contains("CheckerboardGenerator") })
    }

    @Test("unknown names and categories fail with what is accepted", .needsLux)
    func errors() throws {
        let lux = try #require(LuxExecutable.path)
        let name = try LuxExecutable.run(lux, ["filters", "SepiaTones"])
        #expect(name.status != 0 && name.errorText.contains("did you mean SepiaTone"), "\(name.errorText)")
        let category = try LuxExecutable.run(lux, ["filters", "--category", "Nope"])
        #expect(category.status != 0 && category.errorText.contains("known: "), "\(category.errorText)")
    }

    @Test("--markdown prints CATALOG.md as committed", .needsLux)
    func markdown() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["filters", "--markdown"])
        let committed = try String(
            contentsOfFile: TestData.packageRoot + "/Sources/LuxFilters/CATALOG.md", encoding: .utf8)
        #expect(r.status == 0 && r.text == committed)
    }
}
