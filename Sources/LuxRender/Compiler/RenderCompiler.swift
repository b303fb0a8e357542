import LuxColor

/// Compiles ``Image`` recipes for a context's options: colour matches resolved, the graph optimised, per-pixel chains
/// fused into the programs of a ``Plan``.
struct RenderCompiler {
    let options: RenderOptions

    /// Compiles `image` for output in `outputSpace`; `name` labels the render in printed trees.
    func compile(_ image: Image, outputSpace: ColorSpace?, name: String) throws(RenderError) -> PreparedRender {
        guard RenderOptions.workingFormats.contains(options.workingFormat) else {
            throw .invalidOptions(
                "working format \(options.workingFormat) is not one of \(RenderOptions.workingFormats)")
        }
        guard options.tileSize >= 16 else { throw .invalidOptions("tile size \(options.tileSize) is below 16") }
        var lowering = Lowering(workingSpace: options.workingColorSpace)
        var ir = try lowering.lower(image.node)
        let toOutput = try lowering.converter(from: options.workingColorSpace, to: outputSpace)
        ir = IRNode(unary: .unpremultiply, ir)
        if let toOutput { ir = IRNode(unary: .colorMatch(toOutput), ir) }
        if options.outputPremultiplied { ir = IRNode(unary: .premultiply, ir) }
        var optimizer = Optimizer()
        ir = optimizer.optimize(ir)
        let plan = PlanBuilder(workingFormat: options.workingFormat).build(root: ir, rewrites: optimizer.rewrites)
        return PreparedRender(plan: plan, outputSpace: outputSpace, name: name)
    }
}
