import LuxPixels
public import LuxRender

extension VideoStabilizer {
    /// Frame `index` of a stabilised sequence as a lazy image: `frame` warped by the plan's transform into the crop.
    ///
    /// Unlike ``render(_:plan:)`` nothing is computed here: the warp is an affine transform of the recipe (bilinear,
    /// edges clamped), so it fuses with whatever follows and renders tile by tile. Plan on the frames' buffers (or
    /// reduced copies scaled back) with ``plan(_:)``, then build each output frame with this.
    ///
    /// ```swift
    /// let plan = try stabilizer.plan(buffers)
    /// let steady = try buffers.indices.map { try stabilizer.stabilized(Image(buffer: buffers[$0]), at: $0, plan: plan) }
    /// ```
    ///
    /// - Parameters:
    ///   - frame: The input frame, with extent `(0, 0, width, height)` of the frames the plan was made from.
    /// - Returns: An image with extent `(0, 0, plan.outputWidth, plan.outputHeight)`.
    /// - Throws: ``FusionError`` when `index` is outside the plan.
    public func stabilized(_ frame: Image, at index: Int, plan: Plan) throws(FusionError) -> Image {
        guard plan.transforms.indices.contains(index) else {
            throw .invalidParameter(name: "index", value: "\(index)", allowed: "0..<\(plan.transforms.count)")
        }
        // The plan maps output pixel (x, y) to input position t(x, y) with pixel centres on integers; the engine puts
        // them at half-integers and wants the forward map (input → output).
        let half = AffineTransform(translationX: 0.5, y: 0.5)
        let toInput = AffineTransform(translationX: -0.5, y: -0.5).concatenating(plan.transforms[index])
            .concatenating(half)
        guard let forward = toInput.inverted else {
            throw .invalidParameter(
                name: "plan.transforms[\(index)]", value: "\(toInput)", allowed: "an invertible map")
        }
        return frame.clampedToExtent().transformed(by: forward)
            .cropped(to: Rect(width: plan.outputWidth, height: plan.outputHeight))
    }
}
