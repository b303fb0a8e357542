import ArgumentParser
import Foundation
import Lux

/// The files of a batch command (`lux develop`, `lux convert`): inputs expanded from files and folders, sorted, and
/// their outputs.
struct BatchPlan {
    /// One input and the file it is written to.
    struct Item: Sendable {
        var input: String
        var output: String
    }

    /// File extensions taken from a folder (DNG and the camera raw formats LibRaw reads; other files in the folder
    /// are ignored).
    static let rawExtensions: Set<String> = ImageFormat.rawFileExtensions

    /// Image file extensions `lux convert` takes from a folder: the formats Lux reads, raws included.
    static let imageExtensions: Set<String> = rawExtensions.union([
        "jpg", "jpeg", "jpe", "png", "tif", "tiff", "heic", "heif", "hif",
        "webp",
        "avif",
        "gif",
    ])

    /// Every input of the batch (before sharding), sorted by path in byte order.
    var items: [Item]

    /// Expands `arguments` (files and folders) and names the outputs.
    ///
    /// - Parameters:
    ///   - output: A file (one input), a folder, or `nil` to write each output beside its input.
    ///   - fileExtension: The extension of outputs named from their input.
    ///   - accepted: The extensions of the files taken from folders.
    ///   - kind: What the accepted files are called in messages ("raw files", "images").
    ///   - verb: What the command does to a file, for messages ("develop", "convert").
    static func make(
        arguments: [String], output: String?, fileExtension: String, accepted: Set<String> = rawExtensions,
        kind: String = "raw files", verb: String = "develop"
    ) throws -> BatchPlan {
        var inputs: [String] = []
        var single = arguments.count == 1
        for argument in arguments {
            if isFolderPath(argument) {
                single = false
                let names: [String]
                do { names = try FileManager.default.contentsOfDirectory(atPath: argument) } catch {
                    throw ValidationError("\(argument): cannot list the folder (\(error.localizedDescription))")
                }
                let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
                let found = names.filter {
                    !$0.hasPrefix(".") && accepted.contains(URL(fileURLWithPath: $0).pathExtension.lowercased())
                }
                if found.isEmpty {
                    throw ValidationError(
                        "\(argument): no \(kind) (.\(accepted.sorted().joined(separator: ", ."))) in the folder")
                }
                inputs += found.map { base + "/" + $0 }
            } else {
                inputs.append(argument)
            }
        }
        var seen = Set<String>()
        inputs = inputs.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
        inputs.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }

        let items: [Item]
        if single, let output, !isFolderPath(output) {
            items = [Item(input: inputs[0], output: output)]
        } else {
            items = inputs.map { input in
                let url = URL(fileURLWithPath: input)
                let name = url.deletingPathExtension().lastPathComponent + "." + fileExtension
                let folder =
                    output.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
                    ?? url.deletingLastPathComponent().path
                return Item(input: input, output: folder.isEmpty ? name : folder + "/" + name)
            }
        }
        var owners: [String: String] = [:]
        for item in items {
            if let other = owners.updateValue(item.input, forKey: item.output) {
                throw ValidationError(
                    "\(other) and \(item.input) would both \(verb) to \(item.output); \(verb) them into different folders"
                )
            }
            if URL(fileURLWithPath: item.output).standardizedFileURL
                == URL(fileURLWithPath: item.input).standardizedFileURL
            {
                throw ValidationError(
                    "\(item.input): the output would replace the input; choose another --format or -o")
            }
        }
        return BatchPlan(items: items)
    }
}
