import Foundation
import Lux
import Testing

@testable import lux

/// Every case of `lux bench filters` renders a finite image of the frame's extent that is not empty.
///
/// The bench's own case list and parameters are used, on a frame a twelfth of the photo's size. The first
/// release run of the bench lost a case to a parameter of the wrong shape (TriangleKaleidoscope's `size` given a
/// vector) and timed stylize filters at a distortion's radius; both show here.
@Suite struct FiltersBenchCaseTests {
    /// A 336 × 252 frame: a colour ramp seen through a half-transparent checkerboard, so every filter has smooth
    /// areas and edges to work on.
    static let frame: Image = {
        let ramp = Image.linearGradient(
            from: Point(x: 0, y: 0), Color(red: 0.9, green: 0.2, blue: 0.1), to: Point(x: 336, y: 252),
            Color(red: 0.1, green: 0.5, blue: 0.9))
        let squares = Image.checkerboard(
            color0: Color(gray: 1, alpha: 0.5), color1: Color(gray: 0, alpha: 0), width: 28)
        return squares.composited(over: ramp).cropped(to: Rect(x: 0, y: 0, width: 336, height: 252))
    }()

    @Test(arguments: FiltersBenchSuite.newFilters)
    func caseRendersItsFrame(_ filter: String) throws {
        let image = try FiltersBenchSuite.named(filter, Self.frame)
        // StretchCrop makes an image of its `size` (a 16:9 frame), as Core Image's does.
        let expected = filter == "StretchCrop" ? Rect(x: 0, y: 0, width: 336, height: 189) : Self.frame.extent
        #expect(image.extent == expected)
        let context = RenderContext(options: RenderOptions(threadCount: 1))
        let pixels = try context.createBuffer(image, format: .rgbaFloat, colorSpace: nil).components(as: Float.self)
        #expect(pixels.count == Int(expected.width * expected.height) * 4)
        let finite = pixels.allSatisfy { $0.isFinite }
        #expect(finite, "\(filter): a value is not finite")
        let alphas = stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }
        #expect(alphas.contains { $0 > 0 }, "\(filter): every pixel is clear")
    }

    /// Away from the distortions, whose reach the bench sets to 1000 pixels on purpose, every number the bench gives
    /// a filter on the 12 MP photo lies within that parameter's slider range (a typical use): a blur or stylize radius
    /// of 1000 is not one (EdgeWork took 10 s there and 0.25 s at its default).
    @Test(arguments: FiltersBenchSuite.newFilters)
    func numbersAreTypicalOnThePhoto(_ filter: String) throws {
        let photo = Image(color: Color(gray: 0.5)).cropped(
            to: Rect(x: 0, y: 0, width: 4032, height: 3024))
        let descriptor = try FilterRegistry.builtIn.descriptor(named: filter)
        for (name, value) in try FiltersBenchSuite.parameters(filter, photo) {
            guard case .number(let number) = value,
                let range = try #require(descriptor.parameter(named: name)).sliderRange
            else { continue }
            if descriptor.categories.contains(.distortionEffect), name == "radius" {
                #expect(number <= 2016, "\(filter): a reach beyond the photo's half width")
            } else {
                #expect(range.contains(number), "\(filter).\(name) = \(number) is outside \(range)")
            }
        }
    }

    @Test("--only picks cases by name or by their first word")
    func onlySelectsCases() throws {
        let bench = try #require(
            try LuxCommand.parseAsRoot(["bench", "filters", "--only", "GaussianBlur,BumpDistortion"]) as? BenchCommand)
        #expect(bench.selects("GaussianBlur σ=10, 12 MP"))
        #expect(bench.selects("BumpDistortion, 12 MP"))
        #expect(!bench.selects("BumpDistortionLinear, 12 MP"))
        #expect(!bench.selects("Droste, 12 MP"))
    }
}
