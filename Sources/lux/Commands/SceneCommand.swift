import ArgumentParser
import Foundation
import Lux

struct SceneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "List the simulated scenes and render their ground truth.",
        subcommands: [SceneListCommand.self, SceneRenderCommand.self, SceneBenchCommand.self],
        defaultSubcommand: SceneListCommand.self)
}

struct SceneListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in scenes (procedural, then photographic) with their layers and lights.")

    func run() async throws {
        for name in Scene.catalogNames + Scene.photographicCatalogNames {
            let scene = try Scene.builtIn(named: name)
            let layers = scene.layers.map { "\($0.name) \(format($0.distance)) m" }.joined(separator: ", ")
            print("\(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(scene.light) — \(layers)")
        }
    }

    func format(_ d: Double) -> String { d >= 10 ? String(Int(d)) : String(format: "%.2f", d) }
}

struct SceneRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene's ground truth: sharp, at one instant, white-balanced to D65.",
        discussion: """
            The extension picks the format (.jpg, .png, .tif). With --linear the picture is written as a \
            float TIFF in extended linear sRGB, keeping values above 1 (highlights of HDR scenes).

            Examples:
              lux scene render hdr-window -o window.tif --linear --width 2000
              lux scene render photo:portrait.heic -o truth.png
            """)

    @Argument(help: ArgumentHelp(SceneArgument.help), completion: .file())
    var name: String

    @Option(
        name: [.customShort("o"), .customLong("out")], help: "The output file (.jpg, .png or .tif).",
        completion: .file())
    var out: String

    @OptionGroup var overwriteOptions: OverwriteOptions

    @Flag(help: "Write scene-referred linear values (float TIFF, extended linear sRGB).")
    var linear = false

    @Option(name: .customLong("color-space"), help: "The colour space of integer files: srgb, p3, adobe, rec2020, ....")
    var colorSpace = ColorSpaceArgument(.sRGB)

    @Option(parsing: .unconditional, help: "Width in pixels (the height follows the 4:3 frame).")
    var width: Int = 1024

    @Option(parsing: .unconditional, help: "The instant to render, in seconds (scenes with motion change over time).")
    var time: Double = 0

    @Option(parsing: .unconditional, help: "Extra exposure in stops.")
    var exposure: Double = 0

    @Option(parsing: .unconditional, help: "Illuminance in lux of the scene's main light (default: the scene's own).")
    var lux: Double?

    @Option(
        parsing: .unconditional,
        help: "Colour temperature in kelvin of the scene's main light (default: the scene's own).")
    var cct: Double?

    func validate() throws {
        guard (16...16384).contains(width) else { throw ValidationError("--width must be 16...16384, not \(width)") }
    }

    func run() async throws {
        var scene: Scene
        scene = try SceneArgument.scene(name)
        if let lux { scene.light.illuminance = lux }
        if let cct { scene.light.illuminant = .temperature(cct) }
        let url = URL(fileURLWithPath: out)
        guard let format = ImageFormat(fileExtension: url.pathExtension), format != .dng else {
            throw ValidationError("\(out): use .jpg, .png or .tif")
        }
        try overwriteOptions.check(out)
        if linear, format != .tiff { throw ValidationError("--linear writes float values, which need a .tif file") }
        let space: ColorSpace = linear ? .extendedLinearSRGB : colorSpace.space
        let image = try scene.groundTruth(width: width, time: time, colorSpace: space, exposure: exposure)
        do {
            try ImageFile.write(
                image, to: url, format: format,
                options: EncodingOptions(sampleType: linear ? .float32 : (format == .jpeg ? .uint8 : .uint16)))
        } catch {
            throw CLIError(error, file: out)
        }
        print("\(out): \(name) \(image.width)×\(image.height), \(scene.light)")
    }
}
