import Dispatch
import Foundation
import Lux

/// Photo capture on the simulated 12 MP camera (issue 8's benchmarks): shutter-to-delivery per quality level (and
/// whether it falls inside the reported photoProcessingTimeRange), photos per second in a burst, and shutter lag with
/// and without resource preparation.
///
/// There is no peer tool for a simulated camera.
enum CaptureBenchSuite: BenchSuite {
    static let name = "capture"
    static let summary =
        "12 MP photo capture: shutter-to-delivery per quality level, burst photos/s, prepared vs unprepared lag"

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        var cases: [BenchCase] = []
        for level in ["speed", "balanced", "quality"] {
            cases.append(
                BenchCase(
                    suite: name, name: "shutter → JPEG delivered, 12 MP, \(level)",
                    lux: ["bench-worker", name, "shutter", level], peers: [], megapixels: nil,
                    goal: "inside photoProcessingTimeRange"))
        }
        cases.append(
            BenchCase(
                suite: name, name: "burst of 10 speed photos, 12 MP (JPEG)",
                lux: ["bench-worker", name, "burst", "10"],
                peers: [], megapixels: nil, goal: "photos/s"))
        for prepared in ["prepared", "unprepared"] {
            cases.append(
                BenchCase(
                    suite: name, name: "shutter lag (call → exposures done), balanced, 12 MP, \(prepared)",
                    lux: ["bench-worker", name, "lag", prepared], peers: [], megapixels: nil,
                    goal: "prepared < unprepared"))
        }
        return cases
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        try awaitBenchWork { try await run(job: job, arguments: arguments) }
    }

    /// A running 12 MP photo session.
    static func session(maximum: QualityPrioritization = .quality) async throws -> (CaptureSession, PhotoOutput) {
        let camera = SimulatedCamera(scene: .stillLife())
        camera.setFocusMode(.locked)
        let session = CaptureSession()
        let output = PhotoOutput()
        output.maxPhotoQualityPrioritization = maximum
        output.isHighResolutionCaptureEnabled = true
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(DeviceInput(camera: camera))
        try session.addOutput(output)
        try session.commitConfiguration()
        try await session.startRunning()
        return (session, output)
    }

    static func settings(_ level: QualityPrioritization) -> PhotoSettings {
        var s = PhotoSettings()
        s.qualityPrioritization = level
        s.isHighResolutionPhotoEnabled = true
        return s
    }

    /// Times one request from the call: (to exposures done, to didFinishCapture, resolved settings).
    static func time(_ output: PhotoOutput, _ settings: PhotoSettings) async throws -> (
        Double, Double, ResolvedPhotoSettings
    ) {
        let start = ContinuousClock.now
        var captured = 0.0
        var finished = 0.0
        var resolved: ResolvedPhotoSettings?
        for try await e in try output.capturePhoto(settings) {
            switch e {
            case .willBeginCapture(let r): resolved = r
            case .didCapturePhoto: captured = seconds(ContinuousClock.now - start)
            case .didFinishCapture: finished = seconds(ContinuousClock.now - start)
            default: break
            }
        }
        guard let resolved else { throw CLIError("the capture delivered no events") }
        return (captured, finished, resolved)
    }

    static func run(job: String, arguments: [String]) async throws -> Double {
        switch (job, arguments.first) {
        case ("shutter", let name?):
            guard let level = ["speed": QualityPrioritization.speed, "balanced": .balanced, "quality": .quality][name]
            else {
                throw CLIError("usage: bench-worker capture shutter speed|balanced|quality")
            }
            let (session, output) = try await session()
            defer { Task { await session.stopRunning() } }
            try await output.prepare([settings(level)])
            // Two captures teach the cost model this kind; the third is measured.
            for _ in 0..<2 { _ = try await time(output, settings(level)) }
            let cpu0 = cpuSeconds()
            let (_, total, r) = try await time(output, settings(level))
            let cpu = cpuSeconds() - cpu0
            let inside = r.photoProcessingTimeRange.contains(.seconds(total))
            print(
                "note=\(r.processing); CPU \(String(format: "%.2f", cpu)) s; range \(ms(r.photoProcessingTimeRange.lowerBound))–\(ms(r.photoProcessingTimeRange.upperBound)) ms; inside: \(inside ? "yes" : "no")"
            )
            return total
        case ("burst", let n?):
            guard let count = Int(n), count > 0 else { throw CLIError("usage: bench-worker capture burst COUNT") }
            let (session, output) = try await session()
            defer { Task { await session.stopRunning() } }
            try await output.prepare([settings(.speed)])
            _ = try await time(output, settings(.speed))
            let cpu0 = cpuSeconds()
            let start = ContinuousClock.now
            let streams = try (0..<count).map { _ in try output.capturePhoto(settings(.speed)) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for s in streams { group.addTask { for try await _ in s {} } }
                try await group.waitForAll()
            }
            let total = seconds(ContinuousClock.now - start)
            print(
                "note=\(String(format: "%.2f", Double(count) / total)) photos/s; CPU \(String(format: "%.2f", cpuSeconds() - cpu0)) s"
            )
            return total
        case ("lag", let mode?):
            let (session, output) = try await session()
            defer { Task { await session.stopRunning() } }
            try await output.prepare(mode == "prepared" ? [settings(.balanced)] : [])
            let cpu0 = cpuSeconds()
            let (lag, total, _) = try await time(output, settings(.balanced))
            print(
                "note=delivered after \(String(format: "%.0f", total * 1000)) ms; CPU \(String(format: "%.2f", cpuSeconds() - cpu0)) s"
            )
            return lag
        default:
            throw CLIError("usage: bench-worker capture shutter LEVEL | burst COUNT | lag prepared|unprepared")
        }
    }

    /// User + system CPU seconds of this process so far (all threads).
    static func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
    static func ms(_ d: Duration) -> Int { Int(seconds(d) * 1000) }
}
