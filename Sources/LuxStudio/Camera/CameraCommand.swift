import Foundation

/// A message a browser sends on the camera WebSocket: a manual control, a scene change or the shutter.
///
/// Messages are JSON objects with a `"type"`, e.g. `{"type": "exposure", "mode": "custom", "iso": 400,
/// "duration": 0.01}` or `{"type": "capture", "kind": "rawPlusJPEG", "prioritization": "quality"}`. Values are
/// checked against the active format's ranges by the camera, which answers an out-of-range value with an error
/// message.
public enum CameraCommand: Equatable, Sendable {
    /// Focus: `locked` at a lens position (0 closest ... 1 farthest), or `autoFocus` / `continuousAutoFocus`.
    case focus(mode: String, lensPosition: Float?)
    /// Exposure: `custom` with ISO and duration (seconds; either may be absent for "current"), or
    /// `continuousAutoExposure` / `locked`.
    case exposure(mode: String, iso: Float?, duration: Double?)
    /// Exposure compensation in EV.
    case bias(Float)
    /// White balance: `locked` at a temperature (K) and tint, `grayWorld` (locked at the grey-world gains) or
    /// `continuousAutoWhiteBalance`.
    case whiteBalance(mode: String, temperature: Float?, tint: Float?)
    /// The scene the simulated camera looks at: a built-in scene's name, its light level (lux), hand-held or not.
    case scene(name: String?, lux: Double?, handheld: Bool?)
    /// Live Photo capture on or off (it records continuously while on).
    case livePhotoMode(Bool)
    /// The shutter: `photo`, `raw`, `rawPlusJPEG`, `bracket` (with EV biases) or `livePhoto`, at a quality
    /// prioritisation (`speed`, `balanced`, `quality`).
    case capture(kind: String, prioritization: String?, bracket: [Float]?)
    /// The camera the session streams from: a V4L2 camera by its node (`/dev/video0`, one that `/api/cameras`
    /// lists), or the simulated camera (`nil`; `"simulated"` in JSON, or no `path`).
    case device(path: String?)

    /// Reads a message.
    ///
    /// - Throws: ``StudioError/malformedMessage(_:)`` naming what is wrong: not JSON, no known type, a missing or
    ///   mistyped field.
    public init(json text: String) throws(StudioError) {
        let object: [String: Any]
        do {
            guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw StudioError.malformedMessage("a message is a JSON object")
            }
            object = o
        } catch let error as StudioError {
            throw error
        } catch {
            throw .malformedMessage("not JSON")
        }
        // JSONSerialization gives numbers and booleans as NSNumber, and `is Bool` holds for the numbers 0 and 1 too
        // (swift-corelibs-foundation): a JSON boolean is the NSNumber whose type is C's `char`.
        func isBoolean(_ value: Any) -> Bool {
            guard let n = value as? NSNumber else { return false }
            return String(cString: n.objCType) == "c"
        }
        func number(_ key: String) throws(StudioError) -> Double? {
            guard let value = object[key] else { return nil }
            guard let n = value as? NSNumber, !isBoolean(value), n.doubleValue.isFinite else {
                throw .malformedMessage("'\(key)' must be a number")
            }
            return n.doubleValue
        }
        func string(_ key: String) throws(StudioError) -> String? {
            guard let value = object[key] else { return nil }
            guard let s = value as? String, s.utf8.count <= 64 else {
                throw .malformedMessage("'\(key)' must be a short string")
            }
            return s
        }
        func flag(_ key: String) throws(StudioError) -> Bool? {
            guard let value = object[key] else { return nil }
            guard isBoolean(value), let b = value as? Bool else {
                throw .malformedMessage("'\(key)' must be true or false")
            }
            return b
        }
        func required<T>(_ value: T?, _ key: String) throws(StudioError) -> T {
            guard let value else { throw .malformedMessage("'\(key)' is missing") }
            return value
        }
        switch try string("type") {
        case "focus":
            self = .focus(
                mode: try required(try string("mode"), "mode"), lensPosition: try number("lensPosition").map(Float.init)
            )
        case "exposure":
            self = .exposure(
                mode: try required(try string("mode"), "mode"), iso: try number("iso").map(Float.init),
                duration: try number("duration"))
        case "bias":
            self = .bias(Float(try required(try number("value"), "value")))
        case "whiteBalance":
            self = .whiteBalance(
                mode: try required(try string("mode"), "mode"), temperature: try number("temperature").map(Float.init),
                tint: try number("tint").map(Float.init))
        case "scene":
            self = .scene(name: try string("name"), lux: try number("lux"), handheld: try flag("handheld"))
        case "livePhotoMode":
            self = .livePhotoMode(try required(try flag("enabled"), "enabled"))
        case "capture":
            var bracket: [Float]?
            if let value = object["bracket"] {
                guard let items = value as? [NSNumber], (1...8).contains(items.count),
                    items.allSatisfy({ $0.doubleValue.isFinite && !isBoolean($0) })
                else { throw .malformedMessage("'bracket' must be 1 to 8 numbers of EV") }
                bracket = items.map { $0.floatValue }
            }
            self = .capture(
                kind: try required(try string("kind"), "kind"), prioritization: try string("prioritization"),
                bracket: bracket)
        case "device":
            let path = try string("path")
            self = .device(path: path == "simulated" ? nil : path)
        case let other?:
            throw .malformedMessage("unknown message type '\(other)'")
        case nil:
            throw .malformedMessage("'type' is missing")
        }
    }
}
