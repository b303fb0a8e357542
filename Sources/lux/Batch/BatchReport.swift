/// The `--json` report of a batch command: what happened to each file (keys documented in `lux develop --help` and
/// `lux convert --help`).
///
/// The command's past participle names the finished files' status and their count ("developed", "converted").
struct BatchReport: Encodable, Sendable {
    /// The fate of one input.
    enum Status: Sendable {
        /// Written to `output`.
        case done
        /// `output` existed and `--skip-existing` was given.
        case skipped
        /// Not written; `error` says why.
        case failed
        /// `--dry-run`: would be processed.
        case planned
    }

    /// One input.
    struct File: Sendable {
        var input: String
        var output: String
        var status: Status
        /// The message printed on standard error, for failures.
        var error: String?
        /// Output size in pixels (finished files).
        var width: Int?
        var height: Int?
        /// Output file size in bytes (finished files).
        var bytes: Int?
        /// Wall time for this file in seconds (finished and failed files).
        var seconds: Double?
    }

    /// What the command did to a finished file: "developed", "converted".
    var verb: String
    /// The shard this process ran, or `nil` without `--shard`.
    var shard: Shard?
    /// How many inputs the whole batch has (all shards).
    var batchInputCount: Int
    /// The files this process handled, in sorted input order.
    var files: [File] = []
    /// Wall time of the whole run in seconds.
    var seconds: Double = 0

    var finished: Int { files.count { $0.status == .done } }
    var skipped: Int { files.count { $0.status == .skipped } }
    var failed: Int { files.count { $0.status == .failed } }

    /// The status as the JSON writes it.
    func name(_ status: Status) -> String {
        switch status {
        case .done: verb
        case .skipped: "skipped"
        case .failed: "failed"
        case .planned: "planned"
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(shard, forKey: Key("shard"))
        try c.encode(batchInputCount, forKey: Key("batchInputCount"))
        var list = c.nestedUnkeyedContainer(forKey: Key("files"))
        for file in files {
            var f = list.nestedContainer(keyedBy: Key.self)
            try f.encode(file.input, forKey: Key("input"))
            try f.encode(file.output, forKey: Key("output"))
            try f.encode(name(file.status), forKey: Key("status"))
            try f.encodeIfPresent(file.error, forKey: Key("error"))
            try f.encodeIfPresent(file.width, forKey: Key("width"))
            try f.encodeIfPresent(file.height, forKey: Key("height"))
            try f.encodeIfPresent(file.bytes, forKey: Key("bytes"))
            try f.encodeIfPresent(file.seconds, forKey: Key("seconds"))
        }
        try c.encode(finished, forKey: Key(verb))
        try c.encode(skipped, forKey: Key("skipped"))
        try c.encode(failed, forKey: Key("failed"))
        try c.encode(seconds, forKey: Key("seconds"))
    }
}
