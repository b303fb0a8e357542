import Glibc
import LuxColor
import LuxPixels

extension TreePrinter {
    /// The views in `detail` of a render of `rect` of `image`, compiled as `prepared`, stored as `format`.
    static func text(
        _ prepared: PreparedRender, _ image: Image, _ rect: PixelRect, format: PixelFormat, detail: TreeDescription,
        workingSpace: ColorSpace?
    ) -> String {
        var out = ""
        if detail.contains(.graph) {
            out += graph(
                root: image.node, rect: rect.rect, outputSpace: prepared.outputSpace, workingSpace: workingSpace,
                name: prepared.name)
        }
        if detail.contains(.programs) {
            out += programs(plan: prepared.plan, rect: rect, storeFormat: format, name: prepared.name)
        }
        if detail.contains(.graphviz) {
            out += graphviz(plan: prepared.plan, rect: rect, storeFormat: format, name: prepared.name)
        }
        return out
    }

    /// Writes the views the `LUX_PRINT_TREE` environment variable asks for to standard error (nothing when it is
    /// unset).
    static func printIfRequested(
        _ prepared: PreparedRender, _ image: Image, _ rect: PixelRect, format: PixelFormat, workingSpace: ColorSpace?
    ) {
        guard let raw = getenv("LUX_PRINT_TREE") else { return }
        let detail = TreeDescription(environmentValue: String(cString: raw))
        guard !detail.isEmpty else { return }
        var message = text(prepared, image, rect, format: format, detail: detail, workingSpace: workingSpace)
        message.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
