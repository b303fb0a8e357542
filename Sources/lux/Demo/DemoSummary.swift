import Foundation

/// What `lux demo` prints at the end: one line per file it wrote, then where the contact sheet is.
struct DemoSummary {
    let sheet: ContactSheet
    let folder: URL
    let seconds: Double

    var text: String {
        let items = sheet.sections.flatMap(\.items)
        let width = min(max(items.map(\.file.count).max() ?? 0, 12), 40)
        var lines = ["Lux demo: \(items.count) files in \(Self.display(folder.path))/"]
        for item in items {
            let size = sheet.sizes[item.file].map(ContactSheet.byteCount) ?? "?"
            let what = item.caption
            lines.append(
                "  " + item.file.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + size.padding(toLength: 8, withPad: " ", startingAt: 0) + "  " + what)
        }
        lines.append(
            "  " + "thumbs/".padding(toLength: width, withPad: " ", startingAt: 0)
                + "  \(items.filter { $0.preview != nil }.count) thumbnails")
        lines.append(
            "  " + "index.html".padding(toLength: width, withPad: " ", startingAt: 0)
                + "  contact sheet: thumbnails, histograms, resolved settings, event timelines")
        lines.append(
            String(
                format: "Done in %.1f s. Open %@ in a browser.", seconds,
                Self.display(folder.appendingPathComponent("index.html").path)))
        return lines.joined(separator: "\n")
    }

    /// A path relative to the working directory when it is inside it.
    static func display(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }
}
