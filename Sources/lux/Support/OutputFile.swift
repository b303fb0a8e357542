import ArgumentParser
import Foundation

/// What to do when an output file already exists (`--overwrite`; `lux develop` also has `--skip-existing`).
struct OverwriteOptions: ParsableArguments {
    @Flag(help: "Replace output files that already exist (by default an existing file is an error and is left alone).")
    var overwrite = false

    /// Throws a message naming `path` when it exists and `--overwrite` was not given.
    func check(_ path: String) throws {
        if !overwrite && FileManager.default.fileExists(atPath: path) {
            throw CLIError("\(path): already exists; pass --overwrite to replace it")
        }
    }
}

/// Whether `path` names a folder: it ends in "/" or is an existing directory.
func isFolderPath(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return path.hasSuffix("/")
        || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
}
