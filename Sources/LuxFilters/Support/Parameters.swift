import LuxPixels
import LuxRender

extension FilterDeclaration.Parameter {
    /// The region a reduction reads; the default (an empty rectangle) means the image's extent.
    static func reductionExtent(_ keyPath: any WritableKeyPath<F, Rect> & Sendable) -> Self {
        .parameter(
            "extent", keyPath, unit: .pixels,
            summary: "The region to reduce (x, y, width, height); empty means the whole image.")
    }
}

/// A compact, stable rendering of numbers for kernel argument strings (printing and cache keys).
func describe(_ values: [Double]) -> String { values.map { "\($0)" }.joined(separator: ",") }

/// A compact rendering of a SIMD vector for kernel argument strings.
func describe(_ v: SIMD4<Double>) -> String { "\(v.x),\(v.y),\(v.z),\(v.w)" }

/// A compact rendering of a point for kernel argument strings.
func describe(_ p: Point) -> String { "\(p.x),\(p.y)" }
