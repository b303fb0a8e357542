import Foundation
import Lux

/// An ``ImageHistogram`` drawn as inline SVG: luminance as a grey area, red, green and blue as lines.
///
/// The vertical scale is the tallest bin other than the two end bins (where clipped shadows and highlights pile
/// up); taller bins are cut at the top, as photo editors draw them.
enum HistogramSVG {
    static let width = 256.0
    static let height = 80.0

    static func svg(_ h: ImageHistogram, label: String) -> String {
        let inner = [h.luminance, h.red, h.green, h.blue].flatMap {
            $0.count > 2 ? Array($0.dropFirst().dropLast()) : $0
        }
        let peak = max(inner.max() ?? 0, 1e-9)
        func points(_ bins: [Double]) -> [(Double, Double)] {
            let n = Double(bins.count)
            return bins.enumerated().map { k, v in
                ((Double(k) + 0.5) / n * width, height - min(v / peak, 1) * (height - 2))
            }
        }
        func path(_ bins: [Double]) -> String {
            points(bins).map { String(format: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
        }
        let area = "0,\(height) " + path(h.luminance) + " \(width),\(height)"
        return """
            <svg class="histogram" viewBox="0 0 \(Int(width)) \(Int(height))" preserveAspectRatio="none" role="img" aria-label="\(label.htmlEscaped)">\
            <rect width="\(Int(width))" height="\(Int(height))" fill="#111"/>\
            <polygon points="\(area)" fill="#8a8a8a" fill-opacity="0.55"/>\
            <polyline points="\(path(h.red))" fill="none" stroke="#ff5a5a" stroke-width="1.2"/>\
            <polyline points="\(path(h.green))" fill="none" stroke="#5adc5a" stroke-width="1.2"/>\
            <polyline points="\(path(h.blue))" fill="none" stroke="#6a8dff" stroke-width="1.2"/>\
            </svg>
            """
    }
}
