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
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in scenes with their layers and lights.")

    func run() async throws {
        for name in Scene.catalogNames {
            let scene = try Scene.named(name)
            let layers = scene.layers.map { "\($0.name) \(format($0.distance)) m" }.joined(separator: ", ")
            print("\(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(scene.light) — \(layers)")
        }
    }

    func format(_ d: Double) -> String { d >= 10 ? String(Int(d)) : String(format: "%.2f", d) }
}

struct SceneRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene's ground truth: sharp, at one instant, white-balanced to D65.",
        discussion: """
            Writes binary PPM (8-bit sRGB, clipped) or PFM (linear float, values above 1 kept). \
            PNG, JPEG and TIFF arrive with LuxCodecs.
            """)

    @Argument(help: "A built-in scene (see `lux scene list`).")
    var name: String

    @Option(name: .shortAndLong, help: "The output file (.ppm or .pfm).")
    var output: String

    @Option(help: "Width in pixels (the height follows the 4:3 frame).")
    var width: Int = 1024

    @Option(help: "The instant to render, in seconds (scenes with motion change over time).")
    var time: Double = 0

    @Option(help: "Extra exposure in stops.")
    var exposure: Double = 0

    @Option(help: "Illuminance in lux of the scene's main light (default: the scene's own).")
    var lux: Double?

    @Option(help: "Colour temperature in kelvin of the scene's main light (default: the scene's own).")
    var cct: Double?

    func validate() throws {
        guard (16...16384).contains(width) else { throw ValidationError("--width must be 16…16384, not \(width)") }
    }

    func run() async throws {
        var scene: Scene
        do { scene = try Scene.named(name) } catch { throw ValidationError("\(error)") }
        if let lux { scene.light.illuminance = lux }
        if let cct { scene.light.illuminant = .temperature(cct) }
        let ext = (output as NSString).pathExtension.lowercased()
        guard ext == "ppm" || ext == "pfm" else {
            throw ValidationError("\(output): only .ppm and .pfm can be written until LuxCodecs lands")
        }
        let space: ColorSpace = ext == "pfm" ? .linearSRGB : .sRGB
        let image = try scene.groundTruth(width: width, time: time, colorSpace: space, exposure: exposure)
        let data = ext == "pfm" ? pfm(image) : ppm(image)
        let url = URL(fileURLWithPath: output)
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try data.write(to: temp)
            if FileManager.default.fileExists(atPath: url.path) { _ = try FileManager.default.replaceItemAt(url, withItemAt: temp) }
            else { try FileManager.default.moveItem(at: temp, to: url) }
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw ValidationError("cannot write \(output): \(error.localizedDescription)")
        }
        print("\(output): \(name) \(image.width)×\(image.height), \(scene.light)")
    }

    func ppm(_ b: PixelBuffer) -> Data {
        var d = Data("P6\n\(b.width) \(b.height)\n255\n".utf8)
        d.reserveCapacity(d.count + b.width * b.height * 3)
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b.pixel(x: x, y: y)
                for c in 0..<3 { d.append(UInt8(max(0, min(255, (p[c] * 255).rounded())))) }
            }
        }
        return d
    }

    /// Little-endian PFM (scale −1), rows bottom to top as the format requires.
    func pfm(_ b: PixelBuffer) -> Data {
        var d = Data("PF\n\(b.width) \(b.height)\n-1.0\n".utf8)
        for y in (0..<b.height).reversed() {
            for x in 0..<b.width {
                let p = b.pixel(x: x, y: y)
                for c in 0..<3 { withUnsafeBytes(of: p[c].bitPattern.littleEndian) { d.append(contentsOf: $0) } }
            }
        }
        return d
    }
}
