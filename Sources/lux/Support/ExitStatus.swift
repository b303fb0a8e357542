import ArgumentParser

/// The exit statuses every `lux` subcommand uses (listed in `lux --help`).
///
/// | status | meaning |
/// |---|---|
/// | 0 | every input was processed (or skipped on request) |
/// | 1 | the work failed, or some inputs failed while the others were still processed |
/// | 64 | usage error: unknown flag, bad value, conflicting options (nothing was processed) |
enum ExitStatus {
    /// Success.
    static let ok = ExitCode.success
    /// The work failed, or some inputs failed.
    static let failure = ExitCode.failure
    /// A usage error (BSD `EX_USAGE`; swift-argument-parser's status for a `ValidationError`).
    static let usage = ExitCode.validationFailure

    /// The table printed at the end of `lux --help`.
    static let table = """
        Exit status:
          0   every input was processed (or skipped with --skip-existing)
          1   the work failed, or some inputs failed (each named on standard
              error as "error: FILE: what is wrong") while the others were done
          64  usage error: unknown flag, bad or conflicting values; nothing done
        """
}
