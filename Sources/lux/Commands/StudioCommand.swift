import ArgumentParser
import Foundation
import LuxStudio

struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract:
            "Serve Lux Studio, a local web app: camera, gallery, RAW developer, Live Photo editor and filter lab.",
        discussion: """
            Starts an HTTP and WebSocket server with the studio's page (plain HTML, CSS and JavaScript carried in \
            the binary: nothing is fetched from the network). The camera panel shows the simulated camera's \
            viewfinder (640x480 JPEG frames over a WebSocket), or that of a V4L2 camera of the machine chosen in \
            the panel (/dev/video*, as `lux devices` lists them), its manual controls with the active format's ranges \
            (focus, exposure mode/ISO/duration/bias, white balance temperature/tint and grey-world lock), live \
            read-outs and the scene flags, and a shutter for photos, RAW, RAW + JPEG, brackets and Live Photos with \
            each request's event timeline. The gallery lists the captures (written to --out) and the images of \
            every --folder, with thumbnails, the `lux info` report of each file and Live Photos as one item. The \
            RAW developer, the filter lab and the Live Photo editor (play and scrub, choose the key photo, trim, \
            volume or mute, a square crop fixed or sliding over time, a line screen, a logo watermark (Lux's or an \
            uploaded PNG), stabilisation, shoe-shot auto-trim, any filter chain for every frame or the still only; \
            saved as a new pair with a new content identifier) write their results into --out. Files \
            dropped on the gallery are uploaded into --out: up to --upload-limit, only images, RAW files and .mov \
            movies whose content is what their name says, never replacing a file (a taken name becomes name-2.ext).

            The server binds 127.0.0.1 unless --host says otherwise; a host beyond loopback needs --token, and \
            every request must then carry it (open the printed address, which includes ?token=...). Files outside \
            the gallery folders are never served. Ctrl-C stops the server and the camera session; no partial \
            file is left.

            Examples:
              lux studio
              lux studio --open --folder ~/Pictures
              lux studio --port 0 -o captures
              lux studio --host 0.0.0.0 --token "$(openssl rand -hex 16)"
            """)

    @Option(parsing: .unconditional, help: "The TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "The address to bind (default 127.0.0.1); anything but loopback needs --token.")
    var host = "127.0.0.1"

    @Option(help: "The access token every request must carry (8+ characters of A-Z a-z 0-9 - _ . ~).")
    var token: String?

    @Flag(help: "Open the studio in the default browser (xdg-open).")
    var open = false

    @Option(
        parsing: .singleValue, help: "A folder of images the gallery also shows, read-only (repeatable).",
        completion: .directory)
    var folder: [String] = []

    @Option(
        name: [.customShort("o"), .customLong("out")], help: "The folder captures are written to (created if missing).",
        completion: .directory)
    var out = "."

    @Option(help: "The simulated camera's scene (see `lux scene list`).")
    var scene = "still-life"

    @Option(parsing: .unconditional, help: "The largest file a browser may upload into --out, in MiB.")
    var uploadLimit = 256

    func validate() throws {
        guard (1...65536).contains(uploadLimit) else {
            throw ValidationError("--upload-limit must be 1...65536 MiB, not \(uploadLimit)")
        }
    }

    func run() async throws {
        let configuration = StudioConfiguration(
            host: host, port: port, token: token, captureFolder: URL(fileURLWithPath: out),
            folders: folder.map { URL(fileURLWithPath: $0) }, maxUploadBytes: uploadLimit << 20, scene: scene)
        let studio: Studio
        do { studio = try Studio(configuration: configuration) } catch { throw CLIError("\(error)") }
        let open = self.open
        try await studio.run { url in
            print("Lux Studio: \(url.absoluteString)  (Ctrl-C stops)")
            fflush(nil)
            if open {
                let browser = Process()
                browser.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                browser.arguments = ["xdg-open", url.absoluteString]
                try? browser.run()
            }
        }
    }
}
