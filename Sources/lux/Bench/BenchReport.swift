import Foundation

/// Formats results as a Markdown table with the machine description.
enum BenchReport {
    static func machineDescription() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown CPU"
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") } ?? ""
        let features = ["avx2", "f16c", "avx512f"].filter { flags.contains(" \($0)") }.joined(separator: ", ")
        let mem =
            ((try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? "").split(separator: "\n").first
            .map { String($0).replacingOccurrences(of: "MemTotal:", with: "").trimmingCharacters(in: .whitespaces) }
            ?? ""
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(model) (\(features)), \(mem) RAM"
    }

    static func format(_ v: Double, digits: Int = 3) -> String {
        guard v.isFinite else { return "–" }
        return String(format: "%.\(digits)f", v)
    }

    static func markdown(_ results: [BenchResult], command: String) -> String {
        var out = "### \(ISO8601DateFormatter().string(from: Date())) — `\(command)`\n\n"
        out += "Machine: \(machineDescription()). Medians of counted runs after one warm-up, A/B alternated; "
        out +=
            "wall time and peak RSS of each process (start-up included). Ratio = peer time ÷ Lux time (> 1: Lux faster).\n\n"
        out += "| suite | case | Lux s | Lux inner | Lux MB | peer | peer s | peer MB | ratio | goal |\n"
        out += "|---|---|---:|---:|---:|---|---:|---:|---:|---|\n"
        for r in results {
            let inner: String
            if let s = r.lux.innerMedianSeconds {
                inner = r.benchCase.megapixels.map { format($0 / s, digits: 0) + " MP/s" } ?? format(s) + " s"
            } else {
                inner = "–"
            }
            let peers = r.peers.isEmpty ? [nil] : r.peers.map { Optional($0) }
            for (i, p) in peers.enumerated() {
                let first = i == 0
                let ratio = p.map { format($0.medianSeconds / r.lux.medianSeconds, digits: 2) } ?? "–"
                out += "| \(first ? r.benchCase.suite : "") | \(first ? r.benchCase.name : "") | "
                out += "\(first ? format(r.lux.medianSeconds) : "") | \(first ? inner : "") | "
                out += "\(first ? format(r.lux.peakRSSMB, digits: 0) : "") | "
                out += "\(p?.name ?? "none") | \(p.map { format($0.medianSeconds) } ?? "–") | "
                let goal = r.benchCase.goal + (r.notes.isEmpty ? "" : " — " + r.notes.joined(separator: " / "))
                out += "\(p.map { format($0.peakRSSMB, digits: 0) } ?? "–") | \(ratio) | \(first ? goal : "") |\n"
            }
            for m in r.missingPeers { out += "| | | | | | \(m) | missing | | | |\n" }
        }
        return out + "\n"
    }
}
