import LuxPixels
public import LuxRender

/// A compositing operator on premultiplied colour (the kinds of ``Filters/Compositing``).
public enum CompositeOperator: String, Sendable, Hashable, CaseIterable {
    /// `s + d` (every channel, alpha included). Extent: the union.
    case addition
    /// `max(s, d)` per channel. Extent: the union.
    case maximum
    /// `min(s, d)` per channel. Extent: the intersection.
    case minimum
    /// `s·d` per channel. Extent: the intersection.
    case multiply
    /// Porter–Duff source-atop: `s·αd + d·(1 − αs)`. Extent: the background's.
    case sourceAtop
    /// Porter–Duff source-in: `s·αd`. Extent: the intersection.
    case sourceIn
    /// Porter–Duff source-out: `s·(1 − αd)`. Extent: the image's.
    case sourceOut

    /// The filter name (`AdditionCompositing`).
    public var filterName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() + "Compositing" }

    /// The result's extent for a source extent `s` and background extent `d`.
    func extent(_ s: Rect, _ d: Rect) -> Rect {
        switch self {
        case .addition, .maximum: s.union(d)
        case .minimum, .multiply, .sourceIn: s.intersection(d)
        case .sourceAtop: d
        case .sourceOut: s
        }
    }

    var summary: String {
        switch self {
        case .addition: "Adds the image and the background."
        case .maximum: "The larger of the image and the background, per component."
        case .minimum: "The smaller of the image and the background, per component."
        case .multiply: "Multiplies the image and the background, per component."
        case .sourceAtop: "Places the image over the background, only where the background is."
        case .sourceIn: "The image, only where the background is."
        case .sourceOut: "The image, only where the background is not."
        }
    }

    /// The kernel (inputs: source, background).
    var kernel: ColorKernel {
        let op = self
        return ColorKernel(name: rawValue + "Compositing", inputCount: 2) { row in
            let s = row.pixels
            let d = row.input(1)
            let n = row.count
            switch op {
            case .addition: combine(s, d, n) { a, b, _, _ in a + b }
            case .maximum: combine(s, d, n) { a, b, _, _ in max(a, b) }
            case .minimum: combine(s, d, n) { a, b, _, _ in min(a, b) }
            case .multiply: combine(s, d, n) { a, b, _, _ in a * b }
            case .sourceAtop: combine(s, d, n, alpha: d.alpha) { a, b, sa, da in a * da + b * (1 - sa) }
            case .sourceIn: combine(s, d, n) { a, _, _, da in a * da }
            case .sourceOut: combine(s, d, n) { a, _, _, da in a * (1 - da) }
            }
        }
    }
}

/// Applies `f(s, d, αs, αd)` to every channel (alpha included unless `alpha` gives its value).
@inline(__always)
func combine(
    _ s: PlanarPixels, _ d: PlanarPixels, _ n: Int, alpha: UnsafeMutablePointer<Float>? = nil,
    _ f: (Float, Float, Float, Float) -> Float
) {
    for c in 0..<3 {
        let sc = c == 0 ? s.red : (c == 1 ? s.green : s.blue)
        let dc = c == 0 ? d.red : (c == 1 ? d.green : d.blue)
        for i in 0..<n { sc[i] = f(sc[i], dc[i], s.alpha[i], d.alpha[i]) }
    }
    if let alpha {
        s.alpha.update(from: alpha, count: n)
    } else {
        for i in 0..<n { s.alpha[i] = f(s.alpha[i], d.alpha[i], s.alpha[i], d.alpha[i]) }
    }
}

/// A compositing operator as a type (the tags of ``Filters/Compositing``).
public protocol CompositeOperatorKind: Sendable {
    /// The operator.
    static var `operator`: CompositeOperator { get }
}

extension Filters {
    /// Composites the image (source) with the background by a ``CompositeOperator``, on premultiplied colour.
    public struct Compositing<Kind: CompositeOperatorKind>: DeclaredFilter {
        public static var declaration: FilterDeclaration<Self> {
            FilterDeclaration<Self>(
                Kind.operator.filterName, categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
                summary: Kind.operator.summary, .image(\.image, summary: "The source."),
                .image(\.background, "background", summary: "The background."))
        }

        public var image: Image = .empty
        public var background: Image = .empty

        public init() {}

        public var outputImage: Image { image.composited(with: background, Kind.operator) }
    }
}

/// The compositing tags.
public enum CompositeOperators {
    /// ``CompositeOperator/addition``.
    public enum Addition: CompositeOperatorKind { public static let `operator` = CompositeOperator.addition }
    /// ``CompositeOperator/maximum``.
    public enum Maximum: CompositeOperatorKind { public static let `operator` = CompositeOperator.maximum }
    /// ``CompositeOperator/minimum``.
    public enum Minimum: CompositeOperatorKind { public static let `operator` = CompositeOperator.minimum }
    /// ``CompositeOperator/multiply``.
    public enum Multiply: CompositeOperatorKind { public static let `operator` = CompositeOperator.multiply }
    /// ``CompositeOperator/sourceAtop``.
    public enum SourceAtop: CompositeOperatorKind { public static let `operator` = CompositeOperator.sourceAtop }
    /// ``CompositeOperator/sourceIn``.
    public enum SourceIn: CompositeOperatorKind { public static let `operator` = CompositeOperator.sourceIn }
    /// ``CompositeOperator/sourceOut``.
    public enum SourceOut: CompositeOperatorKind { public static let `operator` = CompositeOperator.sourceOut }
}

extension Filters {
    /// `s + d` (see ``Compositing``).
    public typealias AdditionCompositing = Compositing<CompositeOperators.Addition>
    /// `max(s, d)` (see ``Compositing``).
    public typealias MaximumCompositing = Compositing<CompositeOperators.Maximum>
    /// `min(s, d)` (see ``Compositing``).
    public typealias MinimumCompositing = Compositing<CompositeOperators.Minimum>
    /// `s·d` (see ``Compositing``).
    public typealias MultiplyCompositing = Compositing<CompositeOperators.Multiply>
    /// Source-atop (see ``Compositing``).
    public typealias SourceAtopCompositing = Compositing<CompositeOperators.SourceAtop>
    /// Source-in (see ``Compositing``).
    public typealias SourceInCompositing = Compositing<CompositeOperators.SourceIn>
    /// Source-out (see ``Compositing``).
    public typealias SourceOutCompositing = Compositing<CompositeOperators.SourceOut>
}

extension Image {
    /// This image composited with `background` by `op` (see ``Filters/Compositing``).
    public func composited(with background: Image, _ op: CompositeOperator) -> Image {
        let e = op.extent(extent, background.extent)
        if e.isEmpty { return .empty }
        return op.kernel.apply(extent: e, inputs: [self, background])
    }
}
