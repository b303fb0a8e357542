import ArgumentParser
import Lux

/// The manual-control flags of `lux capture`, applied through the `CaptureDevice` protocol to any camera.
struct ManualControlOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Custom exposure: the ISO (with --duration or the current duration).")
    var iso: Float?

    @Option(help: "Custom exposure: the exposure duration in seconds, as 1/60 or 0.0167.")
    var duration: String?

    @Option(
        name: .customLong("lens-position"), parsing: .unconditional,
        help: "Lock focus at a lens position, 0 (closest) ... 1 (farthest).")
    var lensPosition: Float?

    @Option(parsing: .unconditional, help: "Lock white balance at a colour temperature in kelvin.")
    var temperature: Float?

    @Option(parsing: .unconditional, help: "With --temperature: the tint (negative is magenta, positive green).")
    var tint: Float?

    @Option(parsing: .unconditional, help: "Exposure compensation in EV, e.g. -1 or 0.5.")
    var bias: Float?

    func validate() throws {
        _ = try exposureDuration()
        if tint != nil && temperature == nil { throw ValidationError("--tint goes with --temperature") }
    }

    /// Whether any manual control was asked for.
    var isEmpty: Bool {
        iso == nil && duration == nil && lensPosition == nil && temperature == nil && bias == nil
    }

    /// `--duration` as a media time.
    func exposureDuration() throws -> MediaTime? {
        guard let duration else { return nil }
        let parts = duration.split(separator: "/")
        if parts.count == 2, let num = Int64(parts[0]), let den = Int32(parts[1]), num > 0, den > 0 {
            return MediaTime(value: num, timescale: den)
        }
        if parts.count == 1, let seconds = Double(duration), seconds > 0, seconds.isFinite {
            return MediaTime(seconds: seconds, preferredTimescale: 1_000_000)
        }
        throw ValidationError("--duration: '\(duration)' is not a duration in seconds (examples: 1/60, 0.01)")
    }

    /// Applies the controls to `device`; returns lines describing what was set and from which frame it shows.
    func apply(to device: any CaptureDevice) async throws -> [String] {
        var lines: [String] = []
        if iso != nil || duration != nil {
            let d: ControlValue<MediaTime> = try exposureDuration().map { .value($0) } ?? .current
            let i: ControlValue<Float> = iso.map { .value($0) } ?? .current
            let t = try await device.setExposureModeCustom(duration: d, iso: i)
            lines.append(
                "exposure: custom \(duration ?? "current") s, ISO \(iso.map { "\($0)" } ?? "current") from \(t)")
        }
        if let bias {
            let t = try await device.setExposureTargetBias(bias)
            lines.append("exposure bias: \(bias) EV from \(t)")
        }
        if let lensPosition {
            let t = try await device.setFocusModeLocked(lensPosition: .value(lensPosition))
            lines.append("focus: locked at lens position \(lensPosition) from \(t)")
        }
        if let temperature {
            let values = TemperatureAndTint(temperature: Double(temperature), tint: Double(tint ?? 0))
            let t = try await device.setWhiteBalanceModeLocked(temperatureAndTint: values)
            lines.append("white balance: locked at \(values) from \(t)")
        }
        return lines
    }
}
