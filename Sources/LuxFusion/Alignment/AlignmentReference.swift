import LuxPixels

/// A reference frame prepared for alignment: its plan, its grey pyramid and the structure of its finest blocks, shared
/// by every frame aligned to it.
///
/// Aligning a frame runs a ``TileSearch`` (whole-pixel displacements, coarse to fine), a ``SubpixelRefinement`` of the
/// finest level, averages the field over neighbouring blocks for noisy frames, and anchors textureless blocks to the
/// camera's motion.
struct AlignmentReference: Sendable {
    let plan: AlignmentPlan
    /// The reference's pyramid on ``plan``, finest level first.
    let levels: [PlanarBuffer<Float>]
    /// The reference's finest blocks.
    let blocks: BlockStructure
    let refinementIterations: Int
    let refinesToSubpixel: Bool
    let threads: Int

    /// Prepares `grey`, a reference frame's grey image, for alignment with `settings`.
    init(grey: PlanarBuffer<Float>, settings: TileAligner.Settings, noise: GreyNoise) {
        threads = settings.threadCount
        refinementIterations = settings.refinementIterations
        refinesToSubpixel = settings.refinesToSubpixel
        plan = AlignmentPlan(grey: grey, settings: settings, noise: noise)
        levels = plan.pyramid(of: grey, threads: threads)
        blocks = BlockStructure(levels[0], level: plan.levels[0], noise: noise, threads: threads)
    }

    /// The pyramid of another frame's grey image, on this reference's plan.
    func pyramid(of grey: PlanarBuffer<Float>) -> [PlanarBuffer<Float>] {
        plan.pyramid(of: grey, threads: threads)
    }

    /// The displacement field of `alt` (a pyramid from ``pyramid(of:)``), in grey pixels.
    func align(_ alt: [PlanarBuffer<Float>]) -> AlignmentField {
        precondition(alt.count == levels.count)
        // Coarse to fine: integer displacements per block.
        let search = TileSearch(plan: plan.levels, threads: threads).run(reference: levels, alternate: alt)
        // Sub-pixel: quadratic fit of the L2 cost, then Lucas–Kanade.
        let p0 = plan.levels[0]
        let refinement = SubpixelRefinement(
            level: p0, reference: levels[0], blocks: blocks, gradientNoiseFactor: plan.gradientNoiseFactor,
            refinesToSubpixel: refinesToSubpixel, iterations: refinementIterations, threads: threads)
        let (displacements, confidences) = refinement.run(search, alternate: alt[0])
        var field = AlignmentField(
            blockSize: p0.blockSize, columns: p0.columns, rows: p0.rows, displacements: displacements,
            confidences: confidences)
        if plan.smoothingRadius > 0 { field = field.smoothed(radius: plan.smoothingRadius) }
        return field.anchored()
    }
}
