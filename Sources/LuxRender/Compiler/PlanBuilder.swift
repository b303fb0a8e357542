import LuxColor
import LuxPixels

/// Cuts optimised IR into steps: per-pixel nodes fuse into row programs; nodes that read neighbourhoods
/// (affine and warp resampling, general kernels) or whole regions (processors), and explicit
/// intermediates, start new steps whose output is materialised per tile.
final class PlanBuilder {
    let workingFormat: PixelFormat
    private(set) var steps: [Step] = []
    private var stepMemo: [ObjectIdentifier: Step] = [:]
    private var digestMemo: [ObjectIdentifier: String] = [:]
    private var sourceIndex: [UInt64: Int] = [:]
    private(set) var sources: [SourceRef] = []
    private(set) var registerDemand = 0

    init(workingFormat: PixelFormat) {
        self.workingFormat = workingFormat
    }

    /// The storage format of working-format intermediates.
    var intermediateFormat: PixelFormat {
        switch workingFormat {
        case .rgbaFloat, .rgbaHalf, .rgba8: workingFormat
        default: .rgbaHalf
        }
    }

    func build(root ir: IRNode, rewrites: Int) -> Plan {
        let root = rowsStep(ir)
        let plan = Plan(root: root, steps: steps, sources: sources, registerDemand: registerDemand, rewrites: rewrites)
        // A final match of float rows or of an 8-bit slot folds into an 8-bit store (both curves by table).
        let outputMatch: (RowOp, ColorConverter)? =
            switch root.kind {
            case .rows(let match as MatchOp): (match.children[0], match.converter)
            case .rows(let match as Match8Op):
                if case .slot(let read) = match.input { (read, match.converter) } else { nil }
            default: nil
            }
        if let (unmatched, converter) = outputMatch {
            let inner = Step(digest: root.digest, number: root.number)
            inner.kind = .rows(unmatched)
            inner.slots = root.slots
            plan.outputMatch = (inner, converter)
        }
        return plan
    }

    /// The step that computes `ir` with a row program.
    func rowsStep(_ ir: IRNode) -> Step {
        if let s = stepMemo[ObjectIdentifier(ir)], case .rows = s.kind { return s }
        let step = Step(digest: digest(ir), number: steps.count)
        steps.append(step)
        let op = buildRow(ir, in: step)
        registerDemand = max(registerDemand, op.registerDemand + 1)
        step.kind = .rows(op)
        stepMemo[ObjectIdentifier(ir)] = step
        return step
    }

    /// The step that runs the processor `ir`.
    func processorStep(_ ir: IRNode, _ p: ImageProcessor) -> Step {
        if let s = stepMemo[ObjectIdentifier(ir)], case .processor = s.kind { return s }
        let step = Step(digest: digest(ir), number: steps.count)
        steps.append(step)
        step.kind = .processor(p, bounds: PixelRect(covering: ir.extent))
        for input in ir.inputs {
            let exact8 = intermediateFormat == .rgbaHalf && Self.isExact8(input)
            let format = p.inputFormat ?? (exact8 ? .rgba8 : intermediateFormat)
            _ = addSlot(input, format: format, layout: p.inputLayout, quantize: nil, cache: false, to: step)
        }
        stepMemo[ObjectIdentifier(ir)] = step
        return step
    }

    /// Whether every value of `ir` is an 8-bit code over 255 (an 8-bit source or processor output seen through
    /// crops, clamps and translations): then a half-float intermediate would only round it, and 8-bit storage
    /// holds it exactly in half the bytes.
    static func isExact8(_ ir: IRNode) -> Bool {
        switch ir.op {
        case .crop, .clamp, .translate: isExact8(ir.inputs[0])
        case .source(let ref): ref.buffer.format == .rgba8
        case .processor(let p): p.outputFormat == .rgba8
        default: false
        }
    }

    /// Registers a slot holding `ir` in `format` and `layout` for `step`; returns its index.
    ///
    /// A processor writes the slot itself when it writes that storage; otherwise a row program converts.
    func addSlot(
        _ ir: IRNode, format: PixelFormat, layout: PixelLayout = .interleaved, quantize: PixelFormat?, cache: Bool,
        to step: Step
    ) -> Int {
        let producer: Step
        if case .processor(let p) = ir.op, p.outputFormat == format, p.outputLayout == layout {
            producer = processorStep(ir, p)
        } else {
            producer = rowsStep(ir)
        }
        step.slots.append(
            Slot(
                producer: producer, format: format, layout: layout, quantize: quantize == format ? nil : quantize,
                cache: cache, producerBounds: PixelRect(covering: ir.extent), extent: ir.extent))
        return step.slots.count - 1
    }

    /// Quantisation for float slots that stand for working-format intermediates.
    private var workingQuantize: PixelFormat? { workingFormat == .rgbaFloat ? nil : workingFormat }

    func buildRow(_ ir: IRNode, in step: Step) -> RowOp {
        let bounds = PixelRect(covering: ir.extent)
        switch ir.op {
        case .source(let ref):
            let index: Int
            if let i = sourceIndex[ref.id] {
                index = i
            } else {
                index = sources.count
                sourceIndex[ref.id] = index
                sources.append(ref)
            }
            return LoadSourceOp(ref, bounds: bounds, sourceIndex: index)
        case .constant(let v):
            return ConstantOp(v, bounds: bounds)
        case .empty:
            return ConstantOp(.zero, bounds: .empty)
        case .colorKernel(let k, _, let colors):
            let children = ir.inputs.map { buildRow($0, in: step) }
            return KernelOp(k, label: ir.label, colors: colors, bounds: bounds, children: children)
        case .colorMatch(let c):
            // An 8-bit source or slot matched straight into the working space loads through the decode table.
            let child = buildRow(ir.inputs[0], in: step)
            if let load = child as? LoadSourceOp, load.format == .rgba8 {
                return Match8Op(.source(load), converter: c, label: ir.label, bounds: bounds)
            }
            if let read = child as? SlotReadOp, step.slots[read.slot].format == .rgba8,
                step.slots[read.slot].layout == .interleaved
            {
                return Match8Op(.slot(read), converter: c, label: ir.label, bounds: bounds)
            }
            return MatchOp(c, label: ir.label, child: child, bounds: bounds)
        case .premultiply:
            return AlphaOp(.premultiply, child: buildRow(ir.inputs[0], in: step), bounds: bounds)
        case .unpremultiply:
            return AlphaOp(.unpremultiply, child: buildRow(ir.inputs[0], in: step), bounds: bounds)
        case .setAlphaOne:
            return AlphaOp(.alphaOne, child: buildRow(ir.inputs[0], in: step), bounds: bounds)
        case .crop:
            return CropOp(bounds: bounds, children: [buildRow(ir.inputs[0], in: step)])
        case .translate(let dx, let dy):
            return TranslateOp(dx: dx, dy: dy, child: buildRow(ir.inputs[0], in: step), bounds: bounds)
        case .clamp(let edge):
            return ClampOp(edge: edge, child: buildRow(ir.inputs[0], in: step), bounds: .infinite)
        case .affine(let t, let mode):
            let slot = addSlot(ir.inputs[0], format: .rgbaFloat, quantize: workingQuantize, cache: false, to: step)
            return AffineOp(slot: slot, transform: t, mode: mode, bounds: bounds)
        case .warp(let k, _, let mode, let roi):
            let slot = addSlot(ir.inputs[0], format: .rgbaFloat, quantize: workingQuantize, cache: false, to: step)
            return WarpOp(slot: slot, kernel: k, label: ir.label, mode: mode, roi: roi, bounds: bounds)
        case .general(let k, _, let colors, let roi):
            var first = -1
            for input in ir.inputs {
                let s = addSlot(input, format: .rgbaFloat, quantize: workingQuantize, cache: false, to: step)
                if first < 0 { first = s }
            }
            return GeneralOp(firstSlot: first, kernel: k, label: ir.label, colors: colors, roi: roi, bounds: bounds)
        case .processor(let p):
            let slot = addSlot(
                ir, format: p.outputFormat, layout: p.outputLayout, quantize: nil, cache: false, to: step)
            return SlotReadOp(slot: slot, bounds: bounds)
        case .intermediate(let cache):
            let slot = addSlot(ir.inputs[0], format: intermediateFormat, quantize: nil, cache: cache, to: step)
            return SlotReadOp(slot: slot, bounds: bounds)
        }
    }

    /// A structural description of `ir` (identifies equal computations across renders).
    func digest(_ ir: IRNode) -> String {
        if let d = digestMemo[ObjectIdentifier(ir)] { return d }
        var own: String
        switch ir.op {
        case .source(let s): own = "source#\(s.id)"
        case .colorKernel(_, _, let colors) where !colors.isEmpty: own = "\(ir.label){\(colors)}"
        case .general(_, _, let colors, _) where !colors.isEmpty: own = "\(ir.label){\(colors)}"
        case .processor(let p): own = "processor_\(p.processorDescription)[\(p.argumentDigest)]"
        default: own = ir.label
        }
        if !ir.inputs.isEmpty { own += "(" + ir.inputs.map(digest).joined(separator: ",") + ")" }
        digestMemo[ObjectIdentifier(ir)] = own
        return own
    }
}
