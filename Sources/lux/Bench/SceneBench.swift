import ArgumentParser
import Foundation
import Lux

/// `lux bench scene` and `lux scene bench`: the simulated camera's frame times (issue "Simulated camera", performance).
///
/// No peer tool renders a scene through a camera model, so the cases have no peers; each worker reports the median time
/// of one frame (after a warm-up), which is what the goals state.
enum SceneBench: BenchSuite {
    static let name = "scene"
    static let summary =
        "simulated camera: cold 12 MP stills (RAW, RAW + processed), burst frames, preview with 3A, 1440×1080 video"

    /// A case: its name and what it measures.
    struct Case {
        var name: String
        var summary: String
        var goal: String
    }

    static let allCases: [Case] = [
        Case(
            name: "still-chart", summary: "a 4032×3024 Bayer still of the chart, first exposure at a new lens position",
            goal: "≤ 250 ms"),
        Case(name: "still-life", summary: "the same for the still life (5 defocused layers)", goal: "≤ 250 ms"),
        Case(
            name: "still-processed", summary: "the still life with a processed 12 MP '420f' image besides the RAW",
            goal: "≤ 150 ms processed"),
        Case(
            name: "burst",
            summary: "frames 2…8 of an 8-frame still-life burst (same lens and light; shake and noise change)",
            goal: "≤ 120 ms"),
        Case(
            name: "preview",
            summary: "a 1008×756 preview frame of the still life with continuous AF, AE and AWB, settled",
            goal: "≤ 15 ms"),
        Case(
            name: "video", summary: "a processed 1440×1080 '420f' frame of the still life (the Live Photo movie size)",
            goal: "≤ 25 ms"),
    ]

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        allCases.map { c in
            BenchCase(
                suite: name, name: "\(c.name): \(c.summary) (inner: median time of one frame)",
                lux: ["bench-worker", name, c.name], peers: [], megapixels: nil, goal: c.goal)
        }
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        guard allCases.contains(where: { $0.name == job }) else { throw ValidationError("unknown scene job \(job)") }
        let threads = ProcessInfo.processInfo.environment["LUX_THREADS"].flatMap(Int.init)
        return try awaitBenchWork { median(try await measure(job, iterations: 5, threads: threads).map(\.wall)) / 1000 }
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Wall-clock and process CPU time of one frame, in milliseconds.
    struct Sample: Sendable {
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

    static func camera(_ scene: Scene, threads: Int?) -> SimulatedCamera {
        var scene = scene
        scene.cameraMotion = .handheld
        return SimulatedCamera(scene: scene, configuration: .init(threads: threads))
    }

    /// Times `iterations` frames of case `name` (bursts and streams: twice as many) after a warm-up.
    ///
    /// Every case uses hand-held shake.
    static func measure(_ name: String, iterations: Int, threads: Int?) async throws -> [Sample] {
        let manual = StillRequest(exposure: .manual(duration: MediaTime(value: 1, timescale: 60), iso: 100))
        var times: [Sample] = []
        switch name {
        case "still-chart", "still-life", "still-processed":
            // A new lens position for every still, so nothing rendered before can be reused.
            let cam = camera(name == "still-chart" ? .chart() : .stillLife(), threads: threads)
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
                let cam = camera(.stillLife(), threads: threads)
                try await cam.setFocusModeLocked(lensPosition: .value(0.5))
                for i in 0..<8 {
                    let watch = Stopwatch()
                    _ = try await cam.captureStill(manual)
                    if i > 0 { times.append(watch.elapsed) }
                }
            }
        case "preview":
            let cam = camera(.stillLife(), threads: threads)
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
            let cam = camera(.stillLife(), threads: threads)
            guard
                let format = cam.formats.first(where: {
                    $0.width == 1920 && $0.height == 1440 && $0.pixelFormat == .yCbCr420FullRange
                })
            else {
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
            throw ValidationError("unknown case '\(name)'; known: \(allCases.map(\.name).joined(separator: ", "))")
        }
        return times
    }
}
