import ArgumentParser
import Foundation
import Lux

/// The files of a `lux develop` run: inputs expanded from files and folders, sorted, and their outputs.
struct DevelopPlan {
    /// One input and the file it develops to.
    struct Item: Sendable {
        var input: String
        var output: String
    }

    /// File extensions taken from a folder (DNG and the camera raw formats LibRaw reads; other files in the folder
    /// are ignored).
    static let rawExtensions: Set<String> = ImageFormat.rawFileExtensions

    /// Every input of the batch (before sharding), sorted by path in byte order.
    var items: [Item]

    /// Expands `arguments` (files and folders) and names the outputs.
    ///
    /// - Parameters:
    ///   - output: A file (one input), a folder, or `nil` to write each output beside its input.
    ///   - fileExtension: The extension of outputs named from their input.
    static func make(arguments: [String], output: String?, fileExtension: String) throws -> DevelopPlan {
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
                let raws = names.filter {
                    !$0.hasPrefix(".") && rawExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased())
                }
                if raws.isEmpty {
                    throw ValidationError(
                        "\(argument): no raw files (.\(rawExtensions.sorted().joined(separator: ", ."))) in the folder")
                }
                inputs += raws.map { base + "/" + $0 }
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
                    "\(other) and \(item.input) would both develop to \(item.output); develop them into different folders"
                )
            }
            if URL(fileURLWithPath: item.output).standardizedFileURL
                == URL(fileURLWithPath: item.input).standardizedFileURL
            {
                throw ValidationError(
                    "\(item.input): the output would replace the input; choose another --format or -o")
            }
        }
        return DevelopPlan(items: items)
    }
}
