public import Foundation
public import LuxCapture

/// What `lux studio` serves and how: the address it binds, the access token, the gallery folders and the limits.
///
/// The studio binds the loopback address by default, where only programs of this machine reach it. Binding
/// another address needs an access token: every request must then carry it (see ``Studio``).
public struct StudioConfiguration: Sendable {
    /// The address the server binds (default `127.0.0.1`).
    public var host: String
    /// The TCP port (default 8080; 0 picks a free port).
    public var port: Int
    /// The token every request must carry, or `nil` for none (allowed on loopback only).
    public var token: String?
    /// The folder new captures are written to.
    public var captureFolder: URL
    /// More folders whose images the gallery shows, read-only.
    public var folders: [URL]
    /// The largest WebSocket message or request body accepted, in bytes (default 64 KiB).
    public var maxMessageBytes: Int
    /// The largest file a browser may upload into the capture folder, in bytes (default 256 MiB).
    public var maxUploadBytes: Int
    /// The viewfinder's size in pixels (default 640 × 480).
    public var viewfinderSize: (width: Int, height: Int)
    /// The simulated camera's scene (a name from `Scene.named`, default `still-life`).
    public var scene: String
    /// The simulated camera's sensor (default: the 12 MP phone sensor; its viewfinder stream is a quarter of each
    /// side).
    public var sensor: SensorModel

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, token: String? = nil, captureFolder: URL,
        folders: [URL] = [], maxMessageBytes: Int = 64 * 1024, maxUploadBytes: Int = 256 << 20,
        viewfinderSize: (width: Int, height: Int) = (640, 480), scene: String = "still-life",
        sensor: SensorModel = .phone12MP
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.captureFolder = captureFolder
        self.folders = folders
        self.maxMessageBytes = maxMessageBytes
        self.maxUploadBytes = maxUploadBytes
        self.viewfinderSize = viewfinderSize
        self.scene = scene
        self.sensor = sensor
    }

    /// Whether ``host`` is a loopback address (`127.0.0.0/8`, `::1` or `localhost`).
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Whether `host` (a name or address, IPv6 with or without brackets) names the loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Checks the configuration before a server starts.
    ///
    /// - Throws: ``StudioError/tokenRequired(host:)`` for a non-loopback host without a token,
    ///   ``StudioError/invalidConfiguration(_:)`` for a bad port, token or limit, ``StudioError/notAFolder(_:)``
    ///   for a gallery folder that is not a readable folder.
    public func validate() throws(StudioError) {
        guard (0...65535).contains(port) else { throw .invalidConfiguration("port \(port) is not 0...65535") }
        if let token {
            guard token.count >= 8,
                token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) })
            else {
                throw .invalidConfiguration(
                    "a token must be at least 8 characters from A-Z, a-z, 0-9 and - _ . ~")
            }
        } else if !isLoopback {
            throw .tokenRequired(host: host)
        }
        guard maxMessageBytes >= 1024 else {
            throw .invalidConfiguration("the message limit must be at least 1024 bytes, not \(maxMessageBytes)")
        }
        guard maxUploadBytes >= 1024 else {
            throw .invalidConfiguration("the upload limit must be at least 1024 bytes, not \(maxUploadBytes)")
        }
        guard viewfinderSize.width >= 16, viewfinderSize.height >= 16, viewfinderSize.width <= 4096,
            viewfinderSize.height <= 4096
        else {
            throw .invalidConfiguration("the viewfinder size must be 16...4096 on each side")
        }
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw .notAFolder(folder.path) }
        }
    }
}
