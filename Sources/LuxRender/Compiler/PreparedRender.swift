import LuxColor

/// A recipe compiled for one output: the plan a ``TileRenderer`` runs, and how it runs it.
struct PreparedRender: @unchecked Sendable {
    // @unchecked: the plan is immutable once built and only read while rendering.
    let plan: Plan
    let outputSpace: ColorSpace?
    let name: String
    /// Checked between tiles (set by the async entry points).
    var isCancelled: (@Sendable () -> Bool)? = nil
    /// Set while strips of one render follow each other: workers keep the blocks their tiles needed (instead of
    /// trimming to ``BufferArena/idleLimit``), so the next strip does not map and zero-fill them again.
    ///
    /// Peak memory is the same; the streaming render trims once at the end.
    var keepsWorkerMemory = false
    /// The intermediates the strips of one render share (see ``SharedIntermediates``).
    var shared: SharedIntermediates? = nil
}
