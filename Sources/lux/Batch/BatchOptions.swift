import ArgumentParser

/// The options every batch command shares (`lux develop`, `lux convert`): parallel jobs, shards, what to do with
/// existing outputs, a dry run and the JSON report.
struct BatchOptions: ParsableArguments {
    @Option(name: .shortAndLong, parsing: .unconditional, help: "Files processed at a time (default 1).")
    var jobs: Int = 1
    @Option(parsing: .unconditional, help: "Render threads per file (default: the processor count divided by --jobs).")
    var threads: Int?
    @Option(
        help: ArgumentHelp(
            "Process only this share of the sorted inputs: INDEX/COUNT (0-based), auto/COUNT or auto (from the job runner's environment).",
            valueName: "index/count"),
        transform: ShardSpecification.init(parsing:))
    var shard: ShardSpecification?
    @OptionGroup var overwriteOptions: OverwriteOptions
    @Flag(
        name: .customLong("skip-existing"),
        help: "Leave outputs that already exist and report them as skipped (resumes an interrupted batch).")
    var skipExisting = false
    @Flag(
        name: .customLong("dry-run"),
        help: "Print which inputs this process would handle, and to which outputs, without writing anything.")
    var dryRun = false
    @Flag(help: "Print a JSON report on standard output (see above for its keys).")
    var json = false

    func validate() throws {
        try validatePositive(jobs, "--jobs")
        try validatePositive(threads, "--threads")
        if overwriteOptions.overwrite && skipExisting {
            throw ValidationError("choose --overwrite or --skip-existing, not both")
        }
    }
}
