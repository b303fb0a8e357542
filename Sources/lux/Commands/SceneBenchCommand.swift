import ArgumentParser
import Foundation
import Lux

struct SceneBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the simulated camera: 12 MP stills and bursts, preview frames with 3A, video frames.",
        discussion: """
            Cases (release build; milliseconds per frame, median after one warm-up):
              still-chart       a 4032×3024 Bayer still of the chart, first exposure at a new lens position
              still-life        the same for the still life (5 defocused layers)
              still-processed   the still life with a processed 12 MP '420f' image besides the RAW
              burst             frames 2…8 of an 8-frame still-life burst (same lens and light; shake and noise change)
              preview           a 1008×756 preview frame of the still life with continuous AF, AE and AWB, settled
              video             a processed 1440×1080 '420f' frame of the still life (the Live Photo movie size)
            Every case uses hand-held shake. Threads: all cores unless --threads says otherwise. The CPU column is
            the process's CPU time per frame (all threads), which other jobs on the machine disturb less than
            the wall-clock time.
            """)

    @Argument(help: "Cases to run (default: all).")
    var cases: [String] = []

    @Option(help: "Timed frames per case (after one warm-up).")
    var iterations: Int = 5

    @Option(help: "Render threads (default: all cores).")
    var threads: Int?

    static let allCases = ["still-chart", "still-life", "still-processed", "burst", "preview", "video"]

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        for c in cases where !Self.allCases.contains(c) {
            throw ValidationError("unknown case '\(c)'; known: \(Self.allCases.joined(separator: ", "))")
        }
    }

    func run() async throws {
        #if DEBUG
        print("warning: this is a debug build; benchmark a release build (swift build -c release)")
        #endif
        let selected = cases.isEmpty ? Self.allCases : cases
        print("case             median ms      min ms  CPU ms   frames")
        for name in selected {
            let times = try await measure(name)
            let sorted = times.map(\.wall).sorted()
            let cpu = times.map(\.cpu).sorted()
            let label = name.padding(toLength: 15, withPad: " ", startingAt: 0)
            print(label + String(format: " %10.1f  %10.1f  %6.1f   %6d", sorted[sorted.count / 2], sorted[0], cpu[cpu.count / 2], times.count))
        }
    }

    func camera(_ scene: Scene) -> SimulatedCamera {
        var scene = scene
        scene.cameraMotion = .handheld
        return SimulatedCamera(scene: scene, configuration: .init(threads: threads))
    }

    /// Wall-clock and process CPU time.
    struct Sample {
        var wall: Double
        var cpu: Double
    }

    struct Stopwatch {
        let clock = ContinuousClock()
        let start: ContinuousClock.Instant
        let cpuStart: Double

        init() {
            start = clock.now
            cpuStart = Self.cpuMilliseconds()
        }

        var elapsed: Sample {
            let d = clock.now - start
            return Sample(
                wall: Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15,
                cpu: Self.cpuMilliseconds() - cpuStart)
        }

        static func cpuMilliseconds() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
        }
    }

    func measure(_ name: String) async throws -> [Sample] {
        let manual = StillRequest(exposure: .manual(duration: MediaTime(value: 1, timescale: 60), iso: 100))
        var times: [Sample] = []
        switch name {
        case "still-chart", "still-life", "still-processed":
            // A new lens position for every still, so nothing rendered before can be reused.
            let cam = camera(name == "still-chart" ? .chart() : .stillLife())
            var request = manual
            if name == "still-processed" { request.processedFormat = .yCbCr420FullRange }
            for i in 0...iterations {
                try await cam.setFocusModeLocked(lensPosition: .value(0.5 + Float(i) * 0.001))
                let watch = Stopwatch()
                _ = try await cam.captureStill(request)
                if i > 0 { times.append(watch.elapsed) }
            }
        case "burst":
            for _ in 0..<max(1, iterations / 2) {
                let cam = camera(.stillLife())
                try await cam.setFocusModeLocked(lensPosition: .value(0.5))
                for i in 0..<8 {
                    let watch = Stopwatch()
                    _ = try await cam.captureStill(manual)
                    if i > 0 { times.append(watch.elapsed) }
                }
            }
        case "preview":
            let cam = camera(.stillLife())
            try cam.setFocusPointOfInterest(Point(x: 0.3, y: 0.4 / 0.75))
            try await cam.startStreaming()
            let config = StreamConfiguration(deliversProcessedFrames: true)
            for _ in 0..<40 { _ = try await cam.nextFrame(config) }
            for _ in 0..<(iterations * 2) {
                let watch = Stopwatch()
                _ = try await cam.nextFrame(config)
                times.append(watch.elapsed)
            }
        case "video":
            let cam = camera(.stillLife())
            guard let format = cam.formats.first(where: { $0.width == 1920 && $0.height == 1440 && $0.pixelFormat == .yCbCr420FullRange }) else {
                throw ValidationError("the simulated camera has no 1920×1440 '420f' format")
            }
            try cam.setActiveFormat(format)
            try await cam.startStreaming()
            var config = StreamConfiguration(deliversProcessedFrames: true)
            config.outputDimensions = .init(width: 1440, height: 1080)
            for _ in 0..<40 { _ = try await cam.nextFrame(config) }
            for _ in 0..<(iterations * 2) {
                let watch = Stopwatch()
                _ = try await cam.nextFrame(config)
                times.append(watch.elapsed)
            }
        default:
            break
        }
        return times
    }
}
