import ArgumentParser
import Foundation

/// `--shard INDEX/COUNT`: which part of a batch this process develops.
///
/// The inputs are expanded (folders listed), de-duplicated and sorted by path (byte order), and the process with
/// shard index `i` of `n` handles the inputs at positions `i, i + n, i + 2n, …`. Every process of the batch sees the
/// same list, so every input is handled by exactly one shard, whatever runs the shards (a Kubernetes Indexed Job, a
/// Slurm array, GNU parallel, a shell loop) and in whatever order they run. Indices start at 0.
///
/// `INDEX` may be `auto`: the index is then read from the job runner's environment (``ShardSpecification/indexVariables``),
/// and `auto` alone also reads the count (``ShardSpecification/countVariables``).
struct ShardSpecification: Sendable, Equatable {
    /// The index, or `nil` for `auto`.
    var index: Int?
    /// The count, or `nil` for `auto` without a count.
    var count: Int?

    /// Environment variables holding a 0-based shard index, in the order they are tried.
    static let indexVariables = [
        "LUX_SHARD_INDEX", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX",
        "CLOUD_RUN_TASK_INDEX",
    ]
    /// Environment variables holding the shard count, for `--shard auto`.
    static let countVariables = ["LUX_SHARD_COUNT", "SLURM_ARRAY_TASK_COUNT", "CLOUD_RUN_TASK_COUNT"]

    /// Parses `INDEX/COUNT`, `auto/COUNT` or `auto`.
    init(parsing text: String) throws {
        let example = "give INDEX/COUNT with 0 ≤ INDEX < COUNT (e.g. 0/4), auto/COUNT or auto"
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { throw ValidationError(example) }
        if parts[0] == "auto" {
            index = nil
        } else if let i = Int(parts[0]), i >= 0 {
            index = i
        } else {
            throw ValidationError("the index '\(parts[0])' is not 'auto' or a number ≥ 0; \(example)")
        }
        if parts.count == 2 {
            guard let n = Int(parts[1]), n >= 1 else {
                throw ValidationError("the count '\(parts[1])' is not a number ≥ 1; \(example)")
            }
            count = n
        } else {
            guard index == nil else { throw ValidationError(example) }
            count = nil
        }
        if let index, let count, index >= count {
            throw ValidationError("the index must be below the count (0…\(count - 1)); indices start at 0")
        }
    }

    /// The shard this process runs, with `auto` parts read from `environment`.
    func resolve(environment all: [String: String]) throws -> Shard {
        // A variable exported empty counts as unset.
        let environment = all.filter { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }
        var source = "--shard"
        var resolvedIndex = index
        var usedSlurm = false
        if resolvedIndex == nil {
            guard let name = Self.indexVariables.first(where: { environment[$0] != nil }), let text = environment[name]
            else {
                throw ValidationError(
                    "--shard auto: none of \(Self.indexVariables.joined(separator: ", ")) is set; give the index, e.g. --shard 0/\(count ?? 4)"
                )
            }
            guard var value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--shard auto: \(name)=\(text) is not an integer")
            }
            if name == "SLURM_ARRAY_TASK_ID" {
                // Arrays may start anywhere (--array=1-8): count from the first task.
                usedSlurm = true
                value -= environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0
            }
            resolvedIndex = value
            source = name
        }
        var resolvedCount = count
        if resolvedCount == nil {
            guard let name = Self.countVariables.first(where: { environment[$0] != nil }),
                let value = environment[name].flatMap({ Int($0) }), value >= 1
            else {
                throw ValidationError(
                    "--shard auto: none of \(Self.countVariables.joined(separator: ", ")) is set; give the count, e.g. --shard auto/4"
                )
            }
            resolvedCount = value
        } else if usedSlurm, let slurmCount = environment["SLURM_ARRAY_TASK_COUNT"].flatMap({ Int($0) }),
            slurmCount != resolvedCount
        {
            // Fewer tasks than shards would silently leave inputs undeveloped.
            throw ValidationError(
                "--shard auto/\(resolvedCount!): the Slurm array has \(slurmCount) tasks; use --shard auto/\(slurmCount) or --shard auto"
            )
        }
        let shard = Shard(index: resolvedIndex!, count: resolvedCount!, indexSource: source)
        guard shard.index >= 0, shard.index < shard.count else {
            throw ValidationError("--shard: index \(shard.index) (from \(source)) must be 0…\(shard.count - 1)")
        }
        return shard
    }
}

/// A resolved shard: this process handles the sorted inputs at positions `index`, `index + count`, ….
struct Shard: Codable, Sendable, Equatable {
    /// 0-based index of this shard.
    var index: Int
    /// How many shards the batch is split into.
    var count: Int
    /// Where the index came from: "--shard" or the name of an environment variable.
    var indexSource: String

    /// The elements of `sorted` this shard handles.
    func select<T>(_ sorted: [T]) -> [T] {
        stride(from: index, to: sorted.count, by: count).map { sorted[$0] }
    }
}
