/// `lux develop --json`: what happened to each file (keys documented in `lux develop --help`).
struct DevelopReport: Codable, Sendable {
    /// The fate of one input.
    enum Status: String, Codable, Sendable {
        /// Written to `output`.
        case developed
        /// `output` existed and `--skip-existing` was given.
        case skipped
        /// Not written; `error` says why.
        case failed
        /// `--dry-run`: would be developed.
        case planned
    }

    /// One input.
    struct File: Codable, Sendable {
        var input: String
        var output: String
        var status: Status
        /// The message printed on standard error, for failures.
        var error: String?
        /// Output size in pixels (developed files).
        var width: Int?
        var height: Int?
        /// Output file size in bytes (developed files).
        var bytes: Int?
        /// Wall time for this file in seconds (developed and failed files).
        var seconds: Double?
    }

    /// The shard this process ran, or `nil` without `--shard`.
    var shard: Shard?
    /// How many inputs the whole batch has (all shards).
    var batchInputCount: Int
    /// The files this process handled, in sorted input order.
    var files: [File]
    var developed: Int
    var skipped: Int
    var failed: Int
    /// Wall time of the whole run in seconds.
    var seconds: Double
}
