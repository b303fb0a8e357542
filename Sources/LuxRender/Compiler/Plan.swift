import LuxColor

/// A compiled render: the root program plus everything it depends on.
final class Plan {
    let root: Step
    let steps: [Step]
    let sources: [SourceRef]
    let registerDemand: Int
    /// Graph rewrites the optimiser applied.
    let rewrites: Int
    /// When the root program ends with a colour match: the same program without it, and the match, so an
    /// 8-bit destination can be encoded through the converter's table instead of per-value arithmetic.
    var outputMatch: (step: Step, converter: ColorConverter)?

    init(root: Step, steps: [Step], sources: [SourceRef], registerDemand: Int, rewrites: Int) {
        self.root = root
        self.steps = steps
        self.sources = sources
        self.registerDemand = registerDemand
        self.rewrites = rewrites
    }
}
