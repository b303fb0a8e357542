import CLuxKernels

/// The vertical passes of a ``BlurPlan`` as a stream over rows: each pass keeps a ring of the rows in its window and
/// their running sum, so a band of output rows needs only the rows around it, never a full-height buffer.
///
/// Rows beyond the source are zero; a pass whose window holds only zero rows reports an empty row.
///
/// Rows are flat arrays of `rowLength` floats (any number of planes side by side); every pass works on them
/// element by element, in the C kernels `lux_vertical_box_slide` and `lux_vertical_box_emit` (AVX2 when the CPU
/// has it).
final class VerticalBlur {
    /// One pass's state.
    ///
    /// It lives in memory the stream allocates (as do its rows), so that updating it per row costs no copy-on-write
    /// or exclusivity check.
    struct Stage {
        /// Rows in the ring: the window `k − r − 1 … k + r + 1` of output row k.
        let window: Int
        let ring: UnsafeMutablePointer<Float>
        /// Running sum of the inner window `k − r … k + r` for the last output.
        let sum: UnsafeMutablePointer<Float>
        /// Which ring rows are non-zero (`window` flags).
        let present: UnsafeMutablePointer<Bool>
        /// Non-zero rows in the ring.
        var nonZero = 0
        /// The next input row this stage reads.
        var nextInput: Int
    }

    let rowLength: Int
    let radius: Int
    let fraction: Float
    let scale: Float
    /// The passes, first to last (``BlurPlan/passes`` of them).
    private let stages: UnsafeMutablePointer<Stage>
    /// Produces source row `k` into the pointer; returns false (and writes nothing) for a zero row.
    private let source: (Int, UnsafeMutablePointer<Float>) -> Bool

    /// A stream whose first requested output row is `firstRow`.
    init(plan: BlurPlan, rowLength: Int, firstRow: Int, source: @escaping (Int, UnsafeMutablePointer<Float>) -> Bool) {
        self.rowLength = rowLength
        self.source = source
        radius = plan.radius
        fraction = plan.fraction
        scale = plan.scale
        let window = 2 * plan.radius + 3
        stages = .allocate(capacity: BlurPlan.passes)
        // Each pass's first output is the next pass's first input row; the last pass starts at firstRow.
        for s in 0..<BlurPlan.passes {
            let firstOutput = firstRow - (BlurPlan.passes - 1 - s) * (plan.radius + 1)
            let ring = UnsafeMutablePointer<Float>.allocate(capacity: window * rowLength)
            ring.initialize(repeating: 0, count: window * rowLength)
            let sum = UnsafeMutablePointer<Float>.allocate(capacity: rowLength)
            sum.initialize(repeating: 0, count: rowLength)
            let present = UnsafeMutablePointer<Bool>.allocate(capacity: window)
            present.initialize(repeating: false, count: window)
            (stages + s).initialize(
                to: Stage(
                    window: window, ring: ring, sum: sum, present: present,
                    nextInput: firstOutput - plan.radius - 1))
        }
    }

    deinit {
        for s in 0..<BlurPlan.passes {
            stages[s].ring.deallocate()
            stages[s].sum.deallocate()
            stages[s].present.deallocate()
        }
        stages.deinitialize(count: BlurPlan.passes)
        stages.deallocate()
    }

    /// Output row `k` of the last pass into `out`; false when it is zero.
    ///
    /// Rows must be requested in order.
    func row(_ k: Int, into out: UnsafeMutablePointer<Float>) -> Bool {
        produce(stage: BlurPlan.passes - 1, row: k, into: out)
    }

    private func produce(stage s: Int, row k: Int, into out: UnsafeMutablePointer<Float>) -> Bool {
        let n = rowLength
        let r = radius
        let w = stages[s].window
        @inline(__always) func slot(_ j: Int) -> UnsafeMutablePointer<Float> {
            stages[s].ring + (((j % w) + w) % w) * n
        }
        var emitted = false
        while stages[s].nextInput <= k + r + 1 {
            let j = stages[s].nextInput
            let index = ((j % w) + w) % w
            let dst = stages[s].ring + index * n
            if stages[s].present[index] { stages[s].nonZero -= 1 }
            let present = s == 0 ? source(j, dst) : produce(stage: s - 1, row: j, into: dst)
            if present {
                stages[s].nonZero += 1
            } else if stages[s].present[index] {
                dst.update(repeating: 0, count: n)
            }
            stages[s].present[index] = present
            stages[s].nextInput = j + 1
            // Slide the inner sum to output row j − r − 1: add row j − 1, drop row j − 2r − 2; on the last
            // input for the requested row, write the output in the same pass.
            let sum = stages[s].sum
            let enter = slot(j - 1)
            let leave = slot(j - 2 * r - 2)
            if stages[s].nonZero == 0 {
                sum.update(repeating: 0, count: n)  // exact zero, no rounding residue
            } else if j == k + r + 1 {
                lux_vertical_box_emit(sum, enter, leave, dst, out, n, fraction, scale)
                emitted = true
            } else {
                lux_vertical_box_slide(sum, enter, leave, n)
            }
        }
        return emitted
    }
}
