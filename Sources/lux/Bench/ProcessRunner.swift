import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command as a child process and measures its wall-clock time and peak resident set size.
///
/// Peak RSS comes from `/usr/bin/time -f %M`, not from our own `wait4`: Linux carries the parent's
/// high-water mark into a spawned child across `exec` (the child starts in the parent's address space), so
/// a child of a large benchmark process would report the parent's RSS. `time` is a small process, so the
/// figure it reports for its own child is the child's. Without `/usr/bin/time` the `wait4` figure is used.
struct ProcessRunner {
    struct Measurement {
        var exitStatus: Int32
        var wallSeconds: Double
        var peakRSSBytes: Int
        var standardOutput: String
    }

    enum RunError: Error, CustomStringConvertible {
        case spawnFailed(command: String, errno: Int32)
        var description: String {
            switch self {
            case .spawnFailed(let command, let e): "could not start \(command): \(String(cString: strerror(e)))"
            }
        }
    }

    /// Whether an executable named `name` is on the PATH.
    static func isInstalled(_ name: String) -> Bool { path(of: name) != nil }

    /// The full path of an executable on the PATH.
    static func path(of name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for d in dirs {
            let p = "\(d)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// Runs `arguments` (the first is the program, looked up on the PATH) with extra environment
    /// variables; standard output is captured to a temporary file, standard error discarded.
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Measurement {
        guard let program = path(of: arguments[0]) else {
            throw RunError.spawnFailed(command: arguments[0], errno: ENOENT)
        }
        let token = "lux-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outPath = NSTemporaryDirectory() + token + ".out"
        let rssPath = NSTemporaryDirectory() + token + ".rss"
        defer {
            unlink(outPath)
            unlink(rssPath)
        }
        let timeTool = "/usr/bin/time"
        let usesTime = FileManager.default.isExecutableFile(atPath: timeTool)
        let launched = usesTime ? [timeTool, "-f", "%M", "-o", rssPath, program] : [program]
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        let envStrings = env.map { "\($0.key)=\($0.value)" }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = (launched + arguments.dropFirst()).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, launched[0], &actions, nil, argv, envp)
        guard rc == 0 else { throw RunError.spawnFailed(command: program, errno: rc) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let wall = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        var peakKB = Int(usage.ru_maxrss)
        if usesTime, let text = try? String(contentsOfFile: rssPath, encoding: .utf8),
            let kb = text.split(separator: "\n").last(where: { Int($0) != nil }).flatMap({ Int($0) })
        {
            peakKB = kb
        }
        return Measurement(
            exitStatus: exitStatus, wallSeconds: wall, peakRSSBytes: peakKB * 1024, standardOutput: output)
    }
}
