extension Image {
    /// Whether a geometric step of the recipe (a transform other than a whole-pixel translation, or a warp kernel)
    /// may leave parts of the extent uncovered, and so transparent even where every input is opaque.
    ///
    /// A rotation's corners are the usual case. Steps that only move or recolour pixels, crops, and transforms of
    /// clamped (infinite) inputs cover their whole extent. `lux filter` keeps an opaque input's output opaque unless
    /// this is `true` and the result is not known to be opaque.
    package var mayUncoverExtent: Bool { Self.mayUncover(node) }

    private static func mayUncover(_ node: Node) -> Bool {
        if node.isOpaque { return false }
        let geometric: Bool
        switch node.op {
        case .transform(let t, _): geometric = !t.isIntegerTranslation
        case .warpKernel: geometric = true
        default: geometric = false
        }
        if geometric, !node.inputs.allSatisfy({ $0.extent.isInfinite }) { return true }
        return node.inputs.contains { mayUncover($0) }
    }
}
