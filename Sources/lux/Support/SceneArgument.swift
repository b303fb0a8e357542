import ArgumentParser
import Foundation
import Lux

/// A `--scene` or scene-name argument: a built-in scene's name, or `photo:FILE[,depth=FILE]` for a scene made from a
/// photograph (``Scene/photograph(contentsOf:depth:distance:light:highlightStops:maximumDimension:)``).
enum SceneArgument {
    /// The help text's description of the forms.
    static let help =
        "A built-in scene (see `lux scene list`) or photo:FILE[,depth=FILE], a scene made from a photograph."

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
        guard !file.isEmpty else { throw ValidationError("photo: needs a file: photo:FILE[,depth=FILE]") }
        var depth: URL?
        for part in parts {
            guard part.hasPrefix("depth="), part.count > "depth=".count else {
                throw ValidationError("“\(part)” in \(spec): only depth=FILE may follow the photograph")
            }
            depth = URL(fileURLWithPath: String(part.dropFirst("depth=".count)))
        }
        do {
            return try Scene.photograph(contentsOf: URL(fileURLWithPath: file), depth: depth)
        } catch {
            throw CLIError(error.description)
        }
    }
}
