import ArgumentParser
import Foundation
import Lux

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe an image file without decoding its pixels.",
        discussion: """
            Prints the format, dimensions, sample layout, colour space and ICC profile, Exif capture settings, \
            the Live Photo identifier, and for DNG files the CFA pattern, black and white levels, active area, \
            crop, colour matrices, white balance, noise profile, opcodes and embedded previews.

            Examples:
              lux info IMG_0001.JPG
              lux info photo.dng --json
            """)

    @Argument(help: "The image file (JPEG, PNG, TIFF or DNG).")
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let info: ImageInfo
        do {
            info = try ImageFile.info(url: url)
        } catch {
            throw CLIError(error, file: file)
        }
        let summary = InfoSummary(info)
        if json {
            let data = try JSONSerialization.data(withJSONObject: summary.json, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(file)
            for (key, value) in summary.lines {
                print("  " + key.padding(toLength: 16, withPad: " ", startingAt: 0) + value)
            }
        }
    }
}

/// An error message printed without a stack trace.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }

    /// A codec error about `file` (I/O errors already name the path).
    init(_ error: CodecError, file: String) {
        if case .io = error { description = error.description } else { description = "\(file): \(error)" }
    }
}

/// The fields `lux info` shows, as text lines and as JSON.
struct InfoSummary {
    var lines: [(String, String)] = []
    var json: [String: Any] = [:]

    init(_ info: ImageInfo) {
        let exif = info.metadata.exif
        var format = info.format.description
        if let raw = info.raw {
            if let v = raw.dngVersion {
                format += " " + v.map(String.init).joined(separator: ".")
            } else {
                format = "TIFF/EP raw (not DNG)"
            }
        }
        add("format", format, info.format.rawValue)
        add("size", "\(info.width) × \(info.height)", ["width": info.width, "height": info.height], key: "size")
        add(
            "pixels",
            "\(info.pixelFormat), \(info.bitsPerSample)-bit, \(info.samplesPerPixel) sample\(info.samplesPerPixel == 1 ? "" : "s")\(info.hasAlpha ? ", alpha" : "")",
            [
                "pixelFormat": info.pixelFormat.description, "bitsPerSample": info.bitsPerSample,
                "samplesPerPixel": info.samplesPerPixel,
                "hasAlpha": info.hasAlpha,
            ], key: "pixels")
        add("storage", info.storage, info.storage)
        if let cs = info.colorSpace { add("colour space", cs.name, cs.name, key: "colorSpace") }
        if let icc = info.metadata.iccProfile {
            let d = info.iccProfileDescription ?? "unnamed"
            add("ICC profile", "\(d) (\(icc.count) bytes)", ["description": d, "bytes": icc.count], key: "iccProfile")
        }
        let camera = [exif.make, exif.model].compactMap { $0 }.joined(separator: " ")
        if !camera.isEmpty {
            add("camera", camera, ["make": exif.make ?? "", "model": exif.model ?? ""], key: "camera")
        }
        if let o = exif.orientation { add("orientation", o.description, Int(o.rawValue)) }
        var capture: [String] = []
        var captureJSON: [String: Any] = [:]
        if let t = exif.exposureTime, t.denominator != 0 {
            let v = t.doubleValue
            capture.append(v < 1 && v > 0 ? "1/\(Int((1 / v).rounded())) s" : "\(v) s")
            captureJSON["exposureTime"] = v
        }
        if let f = exif.fNumber, f.denominator != 0 {
            capture.append("f/\(f.doubleValue)")
            captureJSON["fNumber"] = f.doubleValue
        }
        if let iso = exif.isoSpeed {
            capture.append("ISO \(iso)")
            captureJSON["iso"] = iso
        }
        if let fl = exif.focalLength, fl.denominator != 0 {
            capture.append("\(fl.doubleValue) mm")
            captureJSON["focalLength"] = fl.doubleValue
        }
        if let b = exif.exposureBias, b.denominator != 0 {
            capture.append("\(b.doubleValue) EV")
            captureJSON["exposureBias"] = b.doubleValue
        }
        if let f = exif.flash {
            capture.append("flash \(f)")
            captureJSON["flash"] = Int(f.rawValue)
        }
        if !capture.isEmpty { add("capture", capture.joined(separator: ", "), captureJSON, key: "capture") }
        if let d = exif.dateTimeOriginal { add("taken", d.description, d.description, key: "dateTimeOriginal") }
        if let lens = exif.lensModel { add("lens", lens, lens) }
        if let id = info.metadata.livePhotoContentIdentifier {
            add("Live Photo", id, id, key: "livePhotoContentIdentifier")
        }
        if let xmp = info.metadata.xmp { add("XMP", "\(xmp.count) bytes", xmp.count, key: "xmpBytes") }
        if let raw = info.raw { addRaw(raw) }
    }

    mutating func add(_ label: String, _ text: String, _ value: Any, key: String? = nil) {
        lines.append((label, text))
        json[key ?? label] = value
    }

    mutating func addRaw(_ r: RawProperties) {
        var rawJSON: [String: Any] = [:]
        func put(_ label: String, _ text: String, _ key: String, _ value: Any) {
            lines.append((label, text))
            rawJSON[key] = value
        }
        if let u = r.uniqueCameraModel { put("unique model", u, "uniqueCameraModel", u) }
        let layout =
            r.photometric == .colorFilterArray
            ? "CFA \(r.cfa?.description ?? "?")" : "Linear Raw, \(r.samplesPerPixel) samples"
        put("raw", "\(r.bitsPerSample)-bit \(layout)\(r.isFloatingPoint ? " (float)" : "")", "layout", layout)
        rawJSON["bitsPerSample"] = r.bitsPerSample
        if let p = r.cfaPattern { rawJSON["cfaPattern"] = p.rawValue }
        put("black level", r.blackLevel.description, "blackLevel", r.blackLevel.values)
        put("white level", r.whiteLevel.map { String(Int($0)) }.joined(separator: " "), "whiteLevel", r.whiteLevel)
        if r.linearizationTable != nil {
            put(
                "linearization", "\(r.linearizationTable!.count)-entry table", "linearizationTableEntries",
                r.linearizationTable!.count)
        }
        let a = r.activeArea
        put("active area", a.description, "activeArea", [a.top, a.left, a.bottom, a.right])
        if let c = r.defaultCrop { put("default crop", c.description, "defaultCrop", [c.x, c.y, c.width, c.height]) }
        let c = r.color
        func matrixText(_ m: Matrix3x3) -> String {
            m.entries.map { String(format: "%.4f", $0) }.joined(separator: " ")
        }
        for (name, m, ill) in [
            ("ColorMatrix1", c.colorMatrix1, c.calibrationIlluminant1),
            ("ColorMatrix2", c.colorMatrix2, c.calibrationIlluminant2),
        ] {
            if let m { put(name, matrixText(m) + (ill.map { " (\($0))" } ?? ""), name, m.entries) }
        }
        for (name, m) in [("ForwardMatrix1", c.forwardMatrix1), ("ForwardMatrix2", c.forwardMatrix2)] {
            if let m { put(name, matrixText(m), name, m.entries) }
        }
        if let n = c.asShotNeutral {
            put("as-shot neutral", n.map { String(format: "%.4f", $0) }.joined(separator: " "), "asShotNeutral", n)
        }
        if let xy = c.asShotWhiteXY { put("as-shot white", "\(xy)", "asShotWhiteXY", [xy.x, xy.y]) }
        if let calibration = c.cameraColorCalibration, let neutral = c.sceneNeutral,
            let white = try? calibration.chromaticity(forNeutral: neutral)
        {
            let tt = TemperatureAndTint(chromaticity: white)
            put(
                "scene white", String(format: "%.0f K, tint %+.1f (x %.4f, y %.4f)", tt.temperature, tt.tint, white.x, white.y),
                "sceneWhite", ["temperature": tt.temperature, "tint": tt.tint, "x": white.x, "y": white.y])
        }
        if let b = c.analogBalance {
            put("analog balance", b.map { String($0) }.joined(separator: " "), "analogBalance", b)
        }
        if let e = r.baselineExposure { put("baseline exp.", "\(e) EV", "baselineExposure", e) }
        if let n = r.noiseProfile {
            put(
                "noise profile", n.planes.map { "S \($0.scale), O \($0.offset)" }.joined(separator: "; "),
                "noiseProfile",
                n.planes.flatMap { [$0.scale, $0.offset] })
        }
        for (name, list) in [
            ("OpcodeList1", r.opcodeList1), ("OpcodeList2", r.opcodeList2), ("OpcodeList3", r.opcodeList3),
        ] where !list.isEmpty {
            put(name, list.map(\.name).joined(separator: ", "), name, list.map(\.name))
        }
        if r.previews.isEmpty {
            put("previews", "none", "previews", [] as [Any])
        } else {
            put(
                "previews",
                r.previews.map { "\($0.width)×\($0.height) \($0.encoding.rawValue)" }.joined(separator: ", "),
                "previews",
                r.previews.map { ["width": $0.width, "height": $0.height, "encoding": $0.encoding.rawValue] })
        }
        json["raw"] = rawJSON
    }
}
