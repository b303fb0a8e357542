/// One piece of work measured for Lux and for the peer tools that do the same work.
struct BenchCase {
    /// A peer command doing the same work as Lux.
    struct Peer {
        var name: String
        var command: [String]
        var environment: [String: String] = [:]
        /// The executable that must be installed (the first argument by default).
        var tool: String { command[0] }
    }

    var suite: String
    var name: String
    /// Arguments for the `lux` executable (normally `bench-worker …`); its worker prints `inner=SECONDS`.
    var lux: [String]
    var peers: [Peer]
    /// Megapixels processed, to report throughput (nil when not meaningful).
    var megapixels: Double?
    /// The goal the issue states, shown beside the result.
    var goal: String
}

/// The measured outcome of a case.
struct BenchResult {
    struct Sample {
        var name: String
        var medianSeconds: Double
        var peakRSSMB: Double
        var innerMedianSeconds: Double?
        var failures: Int
    }

    var benchCase: BenchCase
    var lux: Sample
    var peers: [Sample]
    var missingPeers: [String]
    /// The workers' `note=` lines of the counted runs.
    var notes: [String] = []
}
