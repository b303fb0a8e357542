import ArgumentParser
import Foundation
import Lux

/// A `--scene` or scene-name argument: a built-in scene's name, or `photo:FILE[,depth=FILE][,size=N]` for a scene made
/// from a photograph (``Scene/photograph(contentsOf:depth:distance:light:highlightStops:maximumDimension:)``), reduced
/// on load to `N` pixels on its longest side (2048 by default).
enum SceneArgument {
    /// The help text's description of the forms.
    static let help =
        "A built-in scene (see `lux scene list`) or photo:FILE[,depth=FILE][,size=N], a scene made from a photograph "
        + "(size: the longest side it is reduced to on load, 2048 by default)."

    /// The scene `spec` names.
    ///
    /// - Throws: `ValidationError` for an unknown name or a malformed `photo:` argument, ``CLIError`` naming a file
    ///   that cannot be read.
    static func scene(_ spec: String) throws -> Scene {
        guard spec.hasPrefix("photo:") else {
            do { return try Scene.builtIn(named: spec) } catch { throw ValidationError("\(error)") }
        }
        var parts = String(spec.dropFirst("photo:".count)).split(separator: ",", omittingEmptySubsequences: false)
        let file = parts.isEmpty ? "" : String(parts.removeFirst())
        let forms = "photo:FILE[,depth=FILE][,size=N]"
        guard !file.isEmpty else { throw ValidationError("photo: needs a file: \(forms)") }
        var depth: URL?
        var size = 2048
        for part in parts {
            if part.hasPrefix("depth="), part.count > "depth=".count {
                depth = URL(fileURLWithPath: String(part.dropFirst("depth=".count)))
            } else if part.hasPrefix("size=") {
                guard let n = Int(part.dropFirst("size=".count)), n >= 16, n <= 16384 else {
                    throw ValidationError("“\(part)” in \(spec): size is the longest side in pixels, 16…16384")
                }
                size = n
            } else {
                throw ValidationError("“\(part)” in \(spec): only depth=FILE and size=N may follow the photograph")
            }
        }
        do {
            return try Scene.photograph(contentsOf: URL(fileURLWithPath: file), depth: depth, maximumDimension: size)
        } catch {
            throw CLIError(error.description)
        }
    }
}
