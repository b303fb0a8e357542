import ArgumentParser
import Lux

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List cameras and microphones with their formats and controls.",
        discussion: """
            Lists the V4L2 cameras (/dev/video*) with their formats (size, frame rates, pixel format) and the manual \
            controls Lux maps onto them, the simulated camera, and the microphones (the simulated one and the ALSA \
            capture devices of /proc/asound/pcm, listed only: sessions record from the simulated microphone). Nodes \
            that cannot be used are listed with the reason (a UVC camera's metadata node, a node the user may not \
            open). Capture from a camera with `lux capture --device /dev/videoN`.

            --json prints one object instead: "cameras" [{id, name, path, driver, formats, controls, \
            deviceControls}] ("deviceControls": the V4L2 controls Lux maps, with their ranges), \
            "unusable" [{path, reason}] and "microphones" [{id, name, path, capture}] ("capture": whether a session \
            can record from it).

            Examples:
              lux devices
              lux devices --json
            """)

    @Flag(help: "Print a JSON report on standard output instead of text (see above for its keys).")
    var json = false

    struct Camera: Encodable {
        var id: String
        var name: String
        var path: String?
        var driver: String?
        var formats: [String]
        var controls: String
        var deviceControls: [String]
    }

    struct Unusable: Encodable {
        var path: String
        var reason: String
    }

    struct Microphone: Encodable {
        var id: String
        var name: String
        var path: String?
        var capture: Bool
    }

    struct Report: Encodable {
        var cameras: [Camera]
        var unusable: [Unusable]
        var microphones: [Microphone]
    }

    func run() throws {
        let found = CaptureDeviceDiscoverySession().devices()
        let report = Report(
            cameras: found.cameras.map { c in
                Camera(
                    id: c.uniqueID, name: c.localizedName, path: c.path, driver: c.driverName,
                    formats: c.formats.map(\.description), controls: c.controlCapabilities.description,
                    deviceControls: c.deviceControls.map {
                        "\($0.control) \($0.minimum)...\($0.maximum) (default \($0.defaultValue))"
                    })
            },
            unusable: found.unusableNodes.map { Unusable(path: $0.path, reason: "\($0.reason)") },
            microphones: found.microphones.map {
                Microphone(id: $0.uniqueID, name: $0.localizedName, path: $0.path, capture: $0.isCaptureSupported)
            })
        if json {
            try JSONOutput.print(report)
            return
        }
        if report.cameras.count == 1 && report.unusable.isEmpty { print("no V4L2 cameras (/dev/video*) found") }
        for c in report.cameras {
            print("camera: \(c.name) [\(c.id)]" + (c.path.map { " at \($0), driver \(c.driver ?? "?")" } ?? ""))
            print("  controls: \(c.controls)")
            for d in c.deviceControls { print("  device control: \(d)") }
            for f in c.formats { print("  format: \(f)") }
        }
        for u in report.unusable { print("unusable: \(u.path): \(u.reason)") }
        for m in report.microphones {
            print(
                "microphone: \(m.name) [\(m.id)]" + (m.path.map { " at \($0)" } ?? "")
                    + (m.capture ? "" : " (listed only: Lux records from the simulated microphone)"))
        }
    }
}
