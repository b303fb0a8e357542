import LuxColor
import LuxPixels

/// Text views of a render in the style of Core Image's `CI_PRINT_TREE`.
enum TreePrinter {
    // MARK: Level 1: the initial graph

    static func graph(
        root: Node, rect: Rect, outputSpace: ColorSpace?, workingSpace: ColorSpace?, name: String
    ) -> String {
        let rois = RegionOfInterest.compute(root: root, rect: rect)
        var out = "initial graph \(name) extent=\(PixelRect(enclosing: rect)) =\n"
        var indent = 1
        if let outputSpace, let workingSpace, !(outputSpace.isColorimetricallyEqual(to: workingSpace)) {
            out +=
                String(repeating: "    ", count: indent)
                + "colormatch workspace-to-\(spaceLabel(outputSpace)) roi=\(PixelRect(enclosing: rect))\n"
            indent += 1
        }
        func line(_ n: Node, _ depth: Int) {
            let roi = rois[n.id] ?? .empty
            out += String(repeating: "    ", count: depth) + describe(n) + " roi=\(roi)"
            out += n.isOpaque ? " opaque\n" : "\n"
            for i in n.inputs { line(i, depth + 1) }
        }
        line(root, indent)
        return out
    }

    static func describe(_ n: Node) -> String {
        switch n.op {
        case .source(let box, let space):
            let b = box.buffer
            return "source \(b.format.shortName) \(b.width)x\(b.height)" + (space.map { " \(spaceLabel($0))" } ?? "")
                + (b.isPremultiplied ? " premultiplied" : "")
        case .constant(let c): return "color \(c)"
        case .empty: return "empty"
        case .colorKernel(let k, let args, _): return "colorkernel \(k.name)(\(args))"
        case .warpKernel(let k, let args, let s, _): return "warpkernel \(k.name)(\(args)) \(s.rawValue)"
        case .generalKernel(let k, let args, _, _): return "kernel \(k.name)(\(args))"
        case .processor(let p):
            return "processor \(p.processorDescription) \(p.argumentDigest.isEmpty ? "()" : "(\(p.argumentDigest))")"
        case .crop(let r): return "crop \(r)"
        case .transform(let t, let s): return "affine [\(t.a) \(t.b) \(t.c) \(t.d) \(t.tx) \(t.ty)] \(s.rawValue)"
        case .clamp(let r): return "clamp \(r)"
        case .matchToWorking(let s): return "colormatch \(spaceLabel(s))-to-workspace"
        case .matchFromWorking(let s): return "colormatch workspace-to-\(spaceLabel(s))"
        case .premultiply: return "premultiply"
        case .unpremultiply: return "unpremultiply"
        case .setAlphaOne: return "alpha_one"
        case .intermediate(let cache): return cache ? "intermediate cached" : "intermediate"
        case .sampling(let m): return "sampling \(m.rawValue)"
        }
    }

    // MARK: Level 8: the programs

    static func programs(plan: Plan, rect: PixelRect, storeFormat: PixelFormat, name: String) -> String {
        var out = "programs graph \(name) roi=\(rect) =\n"
        func step(_ s: Step, _ region: PixelRect, _ storage: String, _ depth: Int) {
            let pad = String(repeating: "    ", count: depth)
            switch s.kind {
            case .rows(let root):
                var rois = [PixelRect](repeating: .empty, count: s.slots.count)
                var sources = [PixelRect](repeating: .empty, count: plan.sources.count)
                root.collect(region, &rois, &sources)
                out += pad + "program \(storage) \(root.expression) rois=\(region)\n"
                for (i, slot) in s.slots.enumerated() {
                    step(slot.producer, bounded(rois[i], slot), slot.storageName, depth + 1)
                }
            case .processor(let p, let bounds):
                let inside = region.intersection(bounds)
                out +=
                    pad
                    + "program \(storage) processor \(p.processorDescription) (\(p.argumentDigest)) rois=\(inside)\n"
                for (k, slot) in s.slots.enumerated() {
                    step(
                        slot.producer, bounded(PixelRect(enclosing: p.roi(k, inside.rect)), slot), slot.storageName,
                        depth + 1)
                }
            }
        }
        step(plan.root, rect, storeFormat.shortName, 1)
        return out
    }

    private static func bounded(_ r: PixelRect, _ slot: Slot) -> PixelRect {
        r.isInfinite ? r.intersection(slot.producerBounds) : r
    }

    // MARK: Graphviz

    static func graphviz(plan: Plan, rect: PixelRect, storeFormat: PixelFormat, name: String) -> String {
        var out = "digraph \"\(name)\" {\n    rankdir=BT;\n    node [shape=box, fontname=\"monospace\"];\n"
        func quote(_ s: String) -> String {
            s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
        }
        for s in plan.steps {
            let label: String
            switch s.kind {
            case .rows(let root): label = "program \(root.expression)"
            case .processor(let p, _): label = "processor \(p.processorDescription) (\(p.argumentDigest))"
            }
            out += "    p\(s.number) [label=\"\(quote(label))\"];\n"
            for (i, slot) in s.slots.enumerated() {
                out += "    p\(slot.producer.number) -> p\(s.number) [label=\"slot\(i) \(slot.storageName)\"];\n"
            }
        }
        out +=
            "    out [shape=ellipse, label=\"\(storeFormat.shortName) \(rect)\"];\n    p\(plan.root.number) -> out;\n}\n"
        return out
    }
}

extension String {
    /// The string with every occurrence of `target` replaced (Foundation-free).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        out += rest
        return out
    }
}
