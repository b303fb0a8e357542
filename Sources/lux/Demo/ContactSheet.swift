import Foundation
import Lux

/// The demo's `index.html`: a self-contained page (inline CSS and SVG, relative links only, no script) with a
/// section per step: thumbnails linking to the files, histograms, the resolved settings and the event timeline.
struct ContactSheet {
    var title: String
    /// One line on the camera, session and scene.
    var subtitle: String
    var sections: [DemoSection]
    /// File sizes by relative name, for the captions.
    var sizes: [String: Int]

    /// The page.
    var html: String {
        var s = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title.htmlEscaped)</title>
            <style>\(Self.css)</style>
            </head>
            <body>
            <header><h1>\(title.htmlEscaped)</h1><p>\(subtitle.htmlEscaped)</p></header>
            <nav>\(sections.enumerated().map { "<a href=\"#s\($0.offset + 1)\">\($0.element.title.htmlEscaped)</a>" }.joined(separator: " · "))</nav>

            """
        for (n, section) in sections.enumerated() { s += self.section(section, number: n + 1) }
        s +=
            "<footer>Written by <code>lux demo</code>. Every file opens in exiftool and ffprobe; "
            + "<code>lux info FILE</code> describes each.</footer>\n</body>\n</html>\n"
        return s
    }

    func section(_ section: DemoSection, number: Int) -> String {
        var s = "<section id=\"s\(number)\">\n<h2>\(number). \(section.title.htmlEscaped)</h2>\n"
        s += "<p class=\"story\">\(section.story.htmlEscaped)</p>\n<div class=\"items\">\n"
        for item in section.items { s += figure(item) }
        s += "</div>\n<div class=\"details\">\n"
        if !section.settings.isEmpty {
            s += "<table class=\"settings\"><caption>Settings</caption>\n"
            for (key, value) in section.settings {
                s += "<tr><th>\(key.htmlEscaped)</th><td>\(value.htmlEscaped)</td></tr>\n"
            }
            s += "</table>\n"
        }
        if !section.events.isEmpty {
            let end = max(section.events.map(\.milliseconds).max() ?? 1, 1)
            s += "<table class=\"timeline\"><caption>Timeline</caption>\n"
            for e in section.events {
                let bar = String(format: "%.1f", 100 * e.milliseconds / end)
                s +=
                    "<tr><td class=\"ms\">\(String(format: "%.1f ms", e.milliseconds))</td>"
                    + "<td class=\"bar\"><span style=\"width:\(bar)%\"></span></td>"
                    + "<td><code>\(e.name.htmlEscaped)</code></td><td>\(e.detail.htmlEscaped)</td></tr>\n"
            }
            s += "</table>\n"
        }
        return s + "</div>\n</section>\n"
    }

    func figure(_ item: DemoSection.Item) -> String {
        let href = item.file.urlPathEncoded
        var s = "<figure>"
        if let p = item.preview {
            s +=
                "<a href=\"\(href)\"><img src=\"\(p.thumbnail.urlPathEncoded)\" width=\"\(p.thumbnailWidth)\" "
                + "height=\"\(p.thumbnailHeight)\" alt=\"\(item.file.htmlEscaped)\"></a>"
            s += HistogramSVG.svg(p.histogram, label: "histogram of \(item.file) in \(p.colorSpace.name)")
        } else {
            s += "<a class=\"file\" href=\"\(href)\">\(item.file.htmlEscaped)</a>"
        }
        let size = sizes[item.file].map { " · " + Self.byteCount($0) } ?? ""
        s +=
            "<figcaption><a href=\"\(href)\">\(item.file.htmlEscaped)</a>\(size.htmlEscaped)<br>"
            + "\(item.caption.htmlEscaped)</figcaption></figure>\n"
        return s
    }

    static func byteCount(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : "\(max(1, bytes / 1024)) KB"
    }

    static let css = """
        body{margin:0;font:14px/1.45 system-ui,sans-serif;background:#1b1b1d;color:#e6e6e6}
        header,nav,section,footer{padding:12px 24px}
        h1{margin:8px 0 2px;font-size:24px}h2{margin:6px 0;font-size:18px}
        header p,.story{color:#b5b5b5;margin:4px 0 10px}
        nav{position:sticky;top:0;background:#232326;border-bottom:1px solid #333;z-index:1}
        a{color:#8ab4ff}section{border-bottom:1px solid #333}
        .items{display:flex;flex-wrap:wrap;gap:14px}
        figure{margin:0;background:#26262a;padding:8px;border-radius:6px;max-width:376px}
        figure img{display:block;max-width:360px;height:auto;background:#000}
        .histogram{display:block;width:100%;max-width:360px;height:64px;margin-top:6px}
        figcaption{font-size:12px;color:#c8c8c8;margin-top:4px}
        a.file{display:flex;align-items:center;justify-content:center;width:240px;height:120px;background:#303036;border-radius:4px}
        .details{display:flex;flex-wrap:wrap;gap:24px;margin-top:12px}
        table{border-collapse:collapse;font-size:12px}caption{text-align:left;font-weight:600;padding-bottom:4px}
        th,td{padding:2px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #303030}
        th{color:#a8a8a8;font-weight:normal}td.ms{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
        td.bar{width:120px}td.bar span{display:block;height:8px;background:#4f7fd9;border-radius:2px;min-width:1px}
        footer{color:#999;font-size:12px}
        """
}
