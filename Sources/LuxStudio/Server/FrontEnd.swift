import Foundation

/// The browser side of the studio: plain HTML, CSS and JavaScript modules, embedded in the binary.
///
/// The files live in `Sources/LuxStudio/FrontEnd` and are embedded as base64 text in `FrontEnd+Files.swift` by
/// `Scripts/embed-studio.py`, so the one static `lux` binary carries them and nothing is fetched from the network.
/// A test compares the embedded bytes with the folder, so an edit without regenerating fails.
enum FrontEnd {
    /// The files by name (`index.html`, `studio.js`, ...), decoded once.
    static let files: [String: [UInt8]] = embedded.mapValues { text in
        Array(Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data())
    }

    /// The `Content-Type` of a front-end file, from its extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }
}
