import CLuxKernels

/// The vector widths of CLuxKernels' lane-generic row kernels that tests force with `lux_force_lanes`.
public enum KernelLanes {
    /// The widths this CPU can run: AVX2 (8 lanes, where the CPU has it), SSE (4, on x86) and scalar (1, the tails
    /// of rows and other CPUs).
    public static var available: [Int32] {
        #if arch(x86_64) || arch(i386)
            return lux_has_f16c() != 0 ? [1, 4, 8] : [1, 4]
        #else
            return [1]
        #endif
    }
}
