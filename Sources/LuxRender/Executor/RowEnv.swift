import LuxPixels

/// What row operations of one program see while evaluating rows of one tile.
struct RowEnv {
    let worker: Worker
    /// The program's materialised slots.
    let slots: UnsafePointer<SlotBuffer>
    /// A sampler per slot (meaningful for `rgbaFloat` slots).
    let samplers: UnsafePointer<Sampler>
}
