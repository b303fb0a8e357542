import ArgumentParser
import Foundation
import LuxTestSupport
import Testing

@testable import lux

/// Negative numbers are values, written the way users type them (`--exposure -1`), for every numeric option of
/// every command: the commands and their options are read from `lux --experimental-dump-help`, and each command
/// line is parsed in process (parsed and validated, never run).
@Suite struct NegativeValueTests {
    /// A command's path below `lux` and the long name of one of its options.
    struct Option: CustomStringConvertible {
        var command: [String]
        var name: String
        var description: String { (["lux"] + command + ["--" + name]).joined(separator: " ") }
    }

    /// Every option of every command, from the tool's own description of itself.
    static func options() throws -> [Option] {
        let lux = try #require(LuxExecutable.path)
        let dump = try ExternalTool.capture(lux, ["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var found: [Option] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option"
            {
                let names = argument["names"] as? [[String: Any]] ?? []
                if let long = names.first(where: { $0["kind"] as? String == "long" })?["name"] as? String {
                    found.append(Option(command: path, name: long))
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? ""])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return found
    }

    /// What parsing `arguments` says: "" when they parse and validate, the error message otherwise.
    static func parse(_ arguments: [String]) -> String {
        do {
            _ = try LuxCommand.parseAsRoot(arguments)
            return ""
        } catch {
            return LuxCommand.message(for: error)
        }
    }

    @Test("every option that takes a number takes a negative one after a space, not only after '='", .needsLux)
    func negativeNumbersAfterASpace() throws {
        let options = try Self.options()
        #expect(options.count > 50, "the dump lists \(options.count) options")
        var numeric = 0
        for option in options {
            // With "=" the text is always the value: an option that rejects a word but not -1 takes numbers.
            let invalid = "is invalid for '--\(option.name)"
            let word = Self.parse(option.command + ["--" + option.name + "=lux-not-a-number"])
            let joined = Self.parse(option.command + ["--" + option.name + "=-1"])
            guard word.contains(invalid), !joined.contains(invalid) else { continue }
            let spaced = Self.parse(option.command + ["--" + option.name, "-1"])
            numeric += 1
            #expect(
                !spaced.contains("Missing value for '--\(option.name)") && !spaced.contains("Unknown option '-1'"),
                "\(option) -1: \(spaced)")
        }
        #expect(numeric >= 40, "\(numeric) numeric options")
        print("\(numeric) of \(options.count) options take numbers")
    }

    @Test("lux develop reads --exposure -1, --tint -20 and --contrast -0.5 as the numbers typed")
    func developSignedValues() throws {
        let parsed = try LuxCommand.parseAsRoot(
            ["develop", "a.dng", "--exposure", "-1", "--tint", "-20", "--contrast", "-0.5", "-o", "b.jpg"])
        let command = try #require(parsed as? DevelopCommand)
        #expect(command.exposure == -1)
        #expect(command.tint == -20)
        #expect(command.contrast == -0.5)
        #expect(command.out == "b.jpg")
    }
}
