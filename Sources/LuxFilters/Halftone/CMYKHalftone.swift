public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A four-colour halftone: the image separated into cyan, magenta, yellow and black inks, each printed as round
    /// dots on its own screen, whose area is the ink's coverage.
    ///
    /// The (unpremultiplied, sRGB-encoded, clamped) colour gives `c = 1 − r`, `m = 1 − g`, `y = 1 − b`; black is
    /// `K = gcr·min(c, m, y)` and each colour ink `c − ucr·K` (clamped to 0…1). Each ink has a square screen of period
    /// `width` turned by `angle` plus 15° (cyan), 75° (magenta), 0° (yellow) and 45° (black). At coverage `k ≤ ½` the
    /// ink is a disc of area `k` (in cells) around each screen point; above ½ the paper is a disc of area `1 − k`
    /// around each cell corner, so a pure threshold (`sharpness` 1) inks exactly the fraction `k` of each cell.
    /// Edges are ramps `(1 − sharpness)·width/2` pixels wide. The output is `(1 − C)(1 − K)`, `(1 − M)(1 − K)`,
    /// `(1 − Y)(1 − K)` for the inked amounts `C, M, Y, K`; alpha is kept. Unlike Core Image's linear working space,
    /// the separation works on sRGB-encoded values, as a press's does on an encoded picture, so a mid grey prints about
    /// half covered; there is no press profile.
    public struct CMYKHalftone: DirectionalScreenFilter {
        public static let declaration = FilterDeclaration<Self>(
            "CMYKHalftone", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a four-colour halftone.", .directionalScreen(spacing: "The distance between dots."),
            .parameter(
                "gcr", \.gcr, slider: 0...1, allowed: 0...1, unit: .fraction, coreImageName: "inputGCR",
                summary: "Gray component replacement: how much of the common grey becomes black ink."),
            .parameter(
                "ucr", \.ucr, slider: 0...1, allowed: 0...1, unit: .fraction, coreImageName: "inputUCR",
                summary: "Under-color removal: how much of the black ink is taken out of the colour inks."))

        public var image: Image = .empty
        public var screen = Screen()
        public var angle: Double = 0
        public var gcr: Double = 1
        public var ucr: Double = 0.5

        public init() {}

        /// The amount of ink, 0…1, at frame position `(u, v)` (in periods) for coverage `k`, with `gain` the ramp's
        /// slope per period.
        static func ink(_ k: Float, _ u: Float, _ v: Float, gain: Float) -> Float {
            if k <= 0 { return 0 }
            if k >= 1 { return 1 }
            let fu = u - u.rounded()
            let fv = v - v.rounded()
            let signed: Float
            if k <= 0.5 {
                signed = (k / Float.pi).squareRoot() - (fu * fu + fv * fv).squareRoot()
            } else {
                let gu = 0.5 - abs(fu)
                let gv = 0.5 - abs(fv)
                signed = (gu * gu + gv * gv).squareRoot() - ((1 - k) / Float.pi).squareRoot()
            }
            return min(max(0.5 + signed * gain, 0), 1)
        }

        public var outputImage: Image {
            let s = screen
            let frames = [15.0, 75, 0, 45].map {
                HalftoneScreen.Frame(center: s.center, angle: angle + $0 * Double.pi / 180, width: s.width)
            }
            let gain = Float(2 / max(1 - s.sharpness, 1e-4))
            let (g, u) = (Float(gcr), Float(ucr))
            let kernel = ColorKernel(name: "cmykHalftone", alphaHandling: .unpremultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let y = Float(row.y) + 0.5
                for i in 0..<row.count {
                    let x = Float(row.x + i) + 0.5
                    let c = 1 - min(max(p.red[i], 0), 1)
                    let m = 1 - min(max(p.green[i], 0), 1)
                    let ye = 1 - min(max(p.blue[i], 0), 1)
                    let black = g * min(c, m, ye)
                    func inked(_ n: Int, _ k: Float) -> Float {
                        let (fu, fv) = frames[n].coordinates(x, y)
                        return Self.ink(min(max(k, 0), 1), fu, fv, gain: gain)
                    }
                    let paper = 1 - inked(3, black)
                    p.red[i] = (1 - inked(0, c - u * black)) * paper
                    p.green[i] = (1 - inked(1, m - u * black)) * paper
                    p.blue[i] = (1 - inked(2, ye - u * black)) * paper
                }
            }
            let arguments =
                "center=\(s.center.x),\(s.center.y) angle=\(angle) width=\(s.width) sharpness=\(s.sharpness) "
                + "gcr=\(gcr) ucr=\(ucr)"
            return image.inPerceptualSpace { $0.applying(kernel, arguments: arguments) }
        }
    }
}

extension Image {
    /// A four-colour halftone of the image (see ``Filters/CMYKHalftone``).
    public func cmykHalftone(
        center: Point, angle: Double = 0, width: Double = 6, sharpness: Double = 0.7, gcr: Double = 1,
        ucr: Double = 0.5
    ) -> Image {
        applyingFilter(
            Filters.CMYKHalftone {
                $0.screen = Filters.Screen(center: center, width: width, sharpness: sharpness)
                $0.angle = angle
                $0.gcr = gcr
                $0.ucr = ucr
            })
    }
}
