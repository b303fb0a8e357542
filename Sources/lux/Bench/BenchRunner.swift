import Foundation

/// Runs cases A B A B … (Lux, then each peer) and reports medians, peak RSS and ratios.
struct BenchRunner {
    var luxExecutable: String
    var runs: Int
    var log: (String) -> Void
    /// Whether to draw a progress bar per case (on a terminal only).
    var showsProgress = true

    func run(_ c: BenchCase) throws -> BenchResult {
        let available = c.peers.filter { ProcessRunner.isInstalled($0.tool) }
        let progress = ProgressBar(
            total: (runs + 1) * (1 + available.count), label: "    \(c.name)", enabled: showsProgress)
        defer { progress.finish() }
        let missing = c.peers.filter { !ProcessRunner.isInstalled($0.tool) }.map {
            "\($0.name) (\($0.tool) not installed)"
        }
        for m in missing { log("  missing peer: \(m)") }
        var luxTimes: [Double] = []
        var luxInner: [Double] = []
        var luxRSS = 0
        var luxFailures = 0
        var luxNotes: [String] = []
        var peerTimes = [[Double]](repeating: [], count: available.count)
        var peerRSS = [Int](repeating: 0, count: available.count)
        var peerFailures = [Int](repeating: 0, count: available.count)
        // One warm-up of each, then `runs` counted rounds alternating Lux and the peers.
        for round in 0...runs {
            let counted = round > 0
            progress.started("lux")
            let m = try ProcessRunner.run([luxExecutable] + c.lux)
            progress.advance(failed: m.exitStatus != 0)
            if m.exitStatus != 0 {
                luxFailures += 1
                progress.log("  lux exited with \(m.exitStatus): \(m.standardOutput.prefix(300))")
            } else if counted {
                luxTimes.append(m.wallSeconds)
                luxRSS = max(luxRSS, m.peakRSSBytes)
                if let inner = Self.innerSeconds(m.standardOutput) { luxInner.append(inner) }
                if let note = Self.note(m.standardOutput) { luxNotes.append(note) }
            }
            for (i, p) in available.enumerated() {
                progress.started(p.name)
                let pm = try ProcessRunner.run(p.command, environment: p.environment)
                progress.advance(failed: pm.exitStatus != 0)
                if pm.exitStatus != 0 {
                    peerFailures[i] += 1
                } else if counted {
                    peerTimes[i].append(pm.wallSeconds)
                    peerRSS[i] = max(peerRSS[i], pm.peakRSSBytes)
                }
            }
        }
        let luxSample = BenchResult.Sample(
            name: "Lux", medianSeconds: Self.median(luxTimes), peakRSSMB: Double(luxRSS) / 1_048_576,
            innerMedianSeconds: luxInner.isEmpty ? nil : Self.median(luxInner), failures: luxFailures)
        let peers = available.enumerated().map { i, p in
            BenchResult.Sample(
                name: p.name, medianSeconds: Self.median(peerTimes[i]), peakRSSMB: Double(peerRSS[i]) / 1_048_576,
                innerMedianSeconds: nil, failures: peerFailures[i])
        }
        return BenchResult(benchCase: c, lux: luxSample, peers: peers, missingPeers: missing, notes: luxNotes)
    }

    static func median(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return .nan }
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// A worker's `note=TEXT` line (what the run observed, shown beside the goal).
    static func note(_ output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("note=") }.map { String($0.dropFirst(5)) }
    }

    static func innerSeconds(_ output: String) -> Double? {
        for line in output.split(separator: "\n") where line.hasPrefix("inner=") {
            return Double(line.dropFirst(6))
        }
        return nil
    }
}
