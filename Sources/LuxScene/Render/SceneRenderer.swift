import LuxColor
import LuxPixels
import RealModule

/// Renders a ``Scene``'s radiance onto a pixel grid: layers back to front, each rasterised with
/// anti-aliased coverage, integrated over the exposure for motion blur, defocused by the thin-lens blur of
/// its distance, and composited.
///
/// Output units: the detector's response to each layer's reflectance × the luminance of a white under the
/// layer's light (`lux/π` cd/m²), plus the flash's contribution falling off with distance². For
/// ``SpectralResponse/cie1931`` the output is XYZ with Y in cd/m².
///
/// Work is split into row bands (and column strips for vertical blur passes); every output value depends only
/// on its inputs, so results are bit-identical for any thread count.
public struct SceneRenderer: Sendable {
    /// The scene.
    public let scene: Scene

    /// Creates a renderer.
    public init(scene: Scene) { self.scene = scene }

    /// Renders `request`.
    ///
    /// - Throws: ``SceneError/invalidRequest(_:)`` for an empty or absurd size.
    /// - Complexity: O(pixels × layers) plus the area of each shape; blur cost does not depend on its radius.
    public func render(_ request: RenderRequest, threads: Int? = nil) throws(SceneError)
        -> RadianceImage
    {
        guard request.width > 0, request.height > 0, request.width <= 32768, request.height <= 32768 else {
            throw .invalidRequest("size \(request.width)×\(request.height) must be 1…32768 on each side")
        }
        guard request.regionSize.x > 0, request.regionSize.y > 0 else {
            throw .invalidRequest("the region must have a positive size")
        }
        let out = PlanarImage(width: request.width, height: request.height, planes: 3)
        render(request, into: out, threads: threads ?? Parallel.defaultThreadCount)
        return RadianceImage(storage: out)
    }

    /// The blur standard deviation in output pixels for a layer at `distance`.
    func blurSigma(distance: Double, request: RenderRequest) -> Double {
        guard let o = request.optics else { return 0 }
        let c = o.lens.blurDiameter(objectDistance: distance, focusDistance: o.focusDistance)
        guard c.isFinite else { return 200 }
        let pixelMM = o.sensorWidth * request.sceneUnitsPerPixel
        return min(c / pixelMM / 2.4, 400)
    }

    /// The pixel → layer-coordinate mapping for a layer at time `t`.
    func mapping(layer: SceneLayer, time t: Double, request: RenderRequest) -> PixelMapping {
        let s = request.sceneUnitsPerPixel
        let sy = request.regionSize.y / Double(request.height)
        let angles = scene.cameraMotion.angles(at: t)
        let f = request.focalLengthInFrameWidths
        let shift = SIMD2(-angles.x * f, -angles.y * f)
        let roll = angles.z
        let cr = Double.cos(-roll), sr = Double.sin(-roll)
        let center = SIMD2(0.5, Scene.frameHeight / 2)
        let o = layer.motion.offset(at: t)
        func rot(_ v: SIMD2<Double>) -> SIMD2<Double> { SIMD2(cr * v.x - sr * v.y, sr * v.x + cr * v.y) }
        let a = rot(SIMD2(s, 0))
        let b = rot(SIMD2(0, sy))
        let c = rot(request.regionOrigin - center - shift) + center - o
        return PixelMapping(dx: a, dy: b, origin: c, pixel: s)
    }

    package func render(_ request: RenderRequest, into out: PlanarImage, threads: Int) {
        out.clear()
        let w = request.width, h = request.height
        var matrices: [Illuminant: Matrix3x3] = [:]
        func matrix(_ i: Illuminant) -> Matrix3x3 {
            if let m = matrices[i] { return m }
            let m = request.response.coefficientMatrix(under: i)
            matrices[i] = m
            return m
        }
        for layer in scene.layers {
            let light = scene.light(for: layer)
            var m = (light.illuminance / Double.pi) * matrix(light.illuminant)
            if let flash = request.flash {
                m = m + (flash.illuminance(atDistance: layer.distance) / Double.pi) * matrix(flash.illuminant)
            }
            let sigma = blurSigma(distance: layer.distance, request: request)
            let margin = GaussianBlur.support(sigma: sigma) + 2
            // Time samples for motion blur.
            let times = motionTimes(layer: layer, request: request)
            let maps = times.map { mapping(layer: layer, time: $0, request: request) }
            // The card covers the layer's pixels over the whole exposure, plus the blur margin.
            guard let box = cardBounds(layer: layer, maps: maps, margin: margin, width: w, height: h) else { continue }
            let card = PlanarImage(width: box.width, height: box.height, planes: 4)
            if maps.count == 1 {
                rasterize(layer: layer, map: maps[0], matrix: m, into: card, box: box, threads: threads)
            } else {
                let sample = PlanarImage(width: box.width, height: box.height, planes: 4)
                let weight = 1 / Float(maps.count)
                for map in maps {
                    sample.clear()
                    rasterize(layer: layer, map: map, matrix: m, into: sample, box: box, threads: threads)
                    accumulate(sample, into: card, weight: weight, threads: threads)
                }
            }
            if sigma > 0.05 {
                for p in 0..<4 {
                    GaussianBlur.blur(card.plane(p), width: box.width, height: box.height, sigma: sigma, threads: threads)
                }
            }
            composite(card, box: box, into: out, threads: threads)
        }
    }

    /// Stratified sample times over the exposure, enough that motion moves less than ~¾ pixel between samples.
    func motionTimes(layer: SceneLayer, request: RenderRequest) -> [Double] {
        let t0 = request.exposureStart, d = request.exposureDuration
        guard d > 0, !(scene.cameraMotion.isStill && layer.motion.isStill) else { return [t0 + d / 2] }
        // Displacement in pixels between start, middle and end (covers oscillation roughly).
        var maxMove = 0.0
        let probes = 8
        var previous: SIMD2<Double>? = nil
        for k in 0...probes {
            let t = t0 + d * Double(k) / Double(probes)
            let m = mapping(layer: layer, time: t, request: request)
            let p = m.pixel(of: SIMD2(0.5, Scene.frameHeight / 2))
            if let prev = previous { maxMove += ((p - prev) * (p - prev)).sum().squareRoot() }
            previous = p
        }
        let n = min(max(Int((maxMove / 0.75).rounded(.up)), 1), max(1, request.maxMotionSamples))
        return (0..<n).map { t0 + d * (Double($0) + 0.5) / Double(n) }
    }

    struct CardBox {
        var x0: Int, y0: Int, width: Int, height: Int
    }

    func cardBounds(layer: SceneLayer, maps: [PixelMapping], margin: Int, width w: Int, height h: Int) -> CardBox? {
        let limit = (x0: -margin, y0: -margin, x1: w + margin, y1: h + margin)
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        for shape in layer.shapes {
            var bounds = shape.geometry.bounds
            if case let .image(_, origin, size, _) = shape.fill, let b = bounds {
                bounds = (pointwiseMax(b.min, origin), pointwiseMin(b.max, origin + size))
            }
            guard let b = bounds else {
                lo = SIMD2(Double(limit.x0), Double(limit.y0))
                hi = SIMD2(Double(limit.x1), Double(limit.y1))
                break
            }
            for map in maps {
                for corner in [b.min, SIMD2(b.max.x, b.min.y), SIMD2(b.min.x, b.max.y), b.max] {
                    let p = map.pixel(of: corner)
                    lo = pointwiseMin(lo, p)
                    hi = pointwiseMax(hi, p)
                }
            }
        }
        guard lo.x.isFinite, hi.x.isFinite else { return nil }
        let x0 = max(limit.x0, Int((lo.x - Double(margin) - 2).rounded(.down)))
        let y0 = max(limit.y0, Int((lo.y - Double(margin) - 2).rounded(.down)))
        let x1 = min(limit.x1, Int((hi.x + Double(margin) + 2).rounded(.up)))
        let y1 = min(limit.y1, Int((hi.y + Double(margin) + 2).rounded(.up)))
        guard x1 > x0, y1 > y0, x1 > 0, y1 > 0, x0 < w, y0 < h else { return nil }
        return CardBox(x0: x0, y0: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Paints every shape of `layer` into `card` (whose pixel (0,0) is output pixel (box.x0, box.y0)).
    func rasterize(
        layer: SceneLayer, map: PixelMapping, matrix m: Matrix3x3, into card: PlanarImage, box: CardBox, threads: Int
    ) {
        let mf = m.entries.map(Float.init)
        for shape in layer.shapes {
            // Pixel range of the shape inside the card.
            var rx0 = 0, ry0 = 0, rx1 = box.width, ry1 = box.height
            if let b = shape.geometry.bounds {
                var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
                for corner in [b.min, SIMD2(b.max.x, b.min.y), SIMD2(b.min.x, b.max.y), b.max] {
                    let p = map.pixel(of: corner)
                    lo = pointwiseMin(lo, p)
                    hi = pointwiseMax(hi, p)
                }
                rx0 = max(rx0, Int((lo.x - 2).rounded(.down)) - box.x0)
                ry0 = max(ry0, Int((lo.y - 2).rounded(.down)) - box.y0)
                rx1 = min(rx1, Int((hi.x + 2).rounded(.up)) - box.x0)
                ry1 = min(ry1, Int((hi.y + 2).rounded(.up)) - box.y0)
            }
            guard rx1 > rx0, ry1 > ry0 else { continue }
            let kernel = ShapeKernel(shape: shape, matrix: mf, pixel: map.pixel)
            let n = rx1 - rx0
            let (sx0, sy0) = (rx0, ry0)
            let cardRef = card
            Parallel.forEachBand(ry1 - sy0, threads: threads) { rows in
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 4 * n)
                defer { scratch.deallocate() }
                for r in rows {
                    let y = sy0 + r
                    let rx0 = sx0
                    // Pixel centre of the first pixel of the segment, in output coordinates.
                    let q = map.scene(Double(box.x0 + rx0) + 0.5, Double(box.y0 + y) + 0.5)
                    kernel.run(
                        n, q: SIMD2(Float(q.x), Float(q.y)), step: SIMD2(Float(map.dx.x), Float(map.dx.y)),
                        scratch: scratch, p0: cardRef.row(0, y) + rx0, p1: cardRef.row(1, y) + rx0,
                        p2: cardRef.row(2, y) + rx0, alpha: cardRef.row(3, y) + rx0)
                }
            }
        }
    }

    func accumulate(_ sample: PlanarImage, into card: PlanarImage, weight: Float, threads: Int) {
        let count = card.width * card.height
        let src = SendablePointer(sample.base), dst = SendablePointer(card.base)
        Parallel.forEachBand(4 * card.height, threads: threads) { rows in
            let start = rows.lowerBound * card.width, end = rows.upperBound * card.width
            _ = count
            for i in start..<end { dst.base[i] += weight * src.base[i] }
        }
    }

    /// `out = out × (1 − α) + card` over the part of the card inside the output.
    func composite(_ card: PlanarImage, box: CardBox, into out: PlanarImage, threads: Int) {
        let ox0 = max(0, box.x0), ox1 = min(out.width, box.x0 + box.width)
        let oy0 = max(0, box.y0), oy1 = min(out.height, box.y0 + box.height)
        guard ox1 > ox0, oy1 > oy0 else { return }
        let n = ox1 - ox0
        Parallel.forEachBand(oy1 - oy0, threads: threads) { rows in
            for r in rows {
                let y = oy0 + r
                let cy = y - box.y0, cx = ox0 - box.x0
                let a = card.row(3, cy) + cx
                for p in 0..<3 {
                    let o = out.row(p, y) + ox0
                    let c = card.row(p, cy) + cx
                    for i in 0..<n { o[i] = o[i] * (1 - a[i]) + c[i] }
                }
            }
        }
    }
}

/// The affine map from output pixel coordinates (pixel centres at i + ½) to a layer's scene coordinates.
struct PixelMapping: Sendable {
    var dx: SIMD2<Double>
    var dy: SIMD2<Double>
    var origin: SIMD2<Double>
    /// Scene units per pixel.
    var pixel: Double

    func scene(_ px: Double, _ py: Double) -> SIMD2<Double> { origin + px * dx + py * dy }

    func pixel(of q: SIMD2<Double>) -> SIMD2<Double> {
        let v = q - origin
        let det = dx.x * dy.y - dy.x * dx.y
        return SIMD2((v.x * dy.y - dy.x * v.y) / det, (dx.x * v.y - v.x * dx.y) / det)
    }
}
