import ArgumentParser
import Foundation
import Lux

struct SceneBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the simulated camera: 12 MP Bayer stills and preview frames of a scene.")

    @Argument(help: "A built-in scene.")
    var name: String = "still-life"

    @Option(help: "Stills to time (after one warm-up).")
    var iterations: Int = 5

    @Option(help: "Render threads (default: all cores).")
    var threads: Int?

    func run() async throws {
        var scene: Scene
        do { scene = try Scene.named(name) } catch { throw ValidationError("\(error)") }
        scene.cameraMotion = .handheld
        let camera = SimulatedCamera(scene: scene, configuration: .init(threads: threads))
        camera.setFocusMode(.locked)
        try await camera.setFocusModeLocked(lensPosition: 0.5)
        let clock = ContinuousClock()
        var stills: [Double] = []
        for i in 0...iterations {
            let t0 = clock.now
            let still = try await camera.captureStill(StillRequest(exposure: .manual(duration: MediaTime(value: 1, timescale: 60), iso: 100)))
            let d = clock.now - t0
            if i > 0 { stills.append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000) }
            _ = still
        }
        try await camera.startStreaming()
        var previews: [Double] = []
        for i in 0...iterations {
            let t0 = clock.now
            _ = try await camera.nextFrame(StreamConfiguration(deliversProcessedFrames: true))
            let d = clock.now - t0
            if i > 0 { previews.append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000) }
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        print(String(format: "%@: 4032×3024 Bayer still %.0f ms (median of %d); 1008×756 preview frame with 3A + ISP %.0f ms", name, median(stills), stills.count, median(previews)))
    }
}
