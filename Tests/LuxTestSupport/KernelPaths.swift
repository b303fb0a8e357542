import CLuxKernels

/// The two code paths of CLuxKernels' dispatched kernels (AVX2 where the CPU has it, and the portable loops) that
/// tests force with `lux_force_portable`.
///
/// Each function forces the portable path on the calling thread while its body runs when asked to and leaves the
/// default choice in place afterwards.
public enum KernelPaths {
    /// Runs `body` with the portable path forced (`portable`) or with the default choice (the fast path where the CPU
    /// has it).
    public static func run<T>(portable: Bool, _ body: () throws -> T) rethrows -> T {
        lux_force_portable(portable ? 1 : 0)
        defer { lux_force_portable(0) }
        return try body()
    }

    /// Runs `body` on the default path, then on the portable one; `body` is told which.
    public static func each(_ body: (_ portable: Bool) throws -> Void) rethrows {
        for portable in [false, true] {
            try run(portable: portable) { try body(portable) }
        }
    }

    /// `body`'s results on the default path and on the portable one.
    public static func both<T>(_ body: () throws -> T) rethrows -> (fast: T, portable: T) {
        let fast = try run(portable: false, body)
        return (fast, try run(portable: true, body))
    }
}
