import LuxColor
import LuxPixels
import LuxRender
import Testing

@Suite struct TreePrintingTests {
    static let values = ["1", "8", "1 8", "8 graphviz", "9", ""]
    static let expected: [TreeDescription] = [
        .graph, .programs, [.graph, .programs], .graphviz, [.graph, .programs], [],
    ]

    @Test("LUX_PRINT_TREE values select the views", arguments: zip(values, expected))
    func environmentValues(value: String, expected: TreeDescription) {
        #expect(TreeDescription(environmentValue: value) == expected)
    }

    @Test("the printed graph shows extents, ROIs, colour matches and opacity like CI_PRINT_TREE")
    func graphText() throws {
        let src = Image(buffer: PixelBuffer(width: 1500, height: 1000, format: .gray8, colorSpace: .sRGB))
        let image = TestKernels.blurred(src.clampedToExtent(), radius: 16).cropped(
            to: Rect(x: 0, y: 0, width: 1500, height: 1000)
        )
        .translatedBy(x: 16, y: 16)
        let text = try RenderContext().describe(
            image, bounds: Rect(x: 0, y: 0, width: 1532, height: 1032), colorSpace: .displayP3, detail: .graph)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "initial graph describe extent=[0 0 1532 1032] =")
        #expect(lines[1] == "    colormatch workspace-to-\"Display P3\" roi=[0 0 1532 1032]")
        #expect(lines.contains("                kernel box(r=16) roi=[0 0 1500 1000]"), "\(text)")
        #expect(lines.contains("                    clamp [0 0 1500 1000] roi=[-16 -16 1532 1032] opaque"), "\(text)")
        #expect(
            lines.last
                == "                        source L8 1500x1000 \"sRGB IEC61966-2.1\" roi=[0 0 1500 1000] opaque",
            "\(text)")
    }

    @Test("graphviz output is a dot graph of the programs")
    func graphviz() throws {
        let src = Image(buffer: PixelBuffer(width: 100, height: 100, format: .rgba8, colorSpace: .sRGB))
        let dot = try RenderContext().describe(TestKernels.blurred(src, radius: 2), detail: .graphviz)
        #expect(dot.hasPrefix("digraph"))
        #expect(dot.contains("-> p0"))
        #expect(dot.hasSuffix("}\n"))
    }
}
