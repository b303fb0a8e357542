import LuxColor
import RealModule

/// One layer prepared for rendering on a pixel grid: its card (the pixels it can touch over the exposure,
/// plus the blur margin), its shapes with their pixel ranges for each time sample, and its blur.
///
/// A strongly defocused layer is planned on a card `scale` times coarser than the grid (card pixel `i`
/// covers grid pixels `i·scale ..< (i + 1)·scale`), blurred there, and interpolated linearly back to the grid
/// (see ``UpsampledLayerStream``): the blur removes everything the coarse card cannot hold, and painting and
/// blurring cost `scale²` times less.
struct LayerPlan: Sendable {
    /// The card's rectangle in card pixels (it may extend beyond the grid by the blur margin).
    let box: CardBox
    /// Grid pixels per card pixel along each axis (1: the card is on the grid itself).
    let scale: Int
    /// Whether the layer needs an alpha plane; an opaque layer (its first shape fills everywhere) has α = 1.
    let hasAlpha: Bool
    /// The defocus blur, nil when sharp.
    let blur: BlurPlan?
    /// The shapes to paint for each time sample of the exposure (averaged with equal weights).
    let samples: [[ShapeSpan]]
    /// What the shapes' kernels point to: a span or kernel is valid only while its plan is alive (they hold plain
    /// pointers into this).
    let memory: ShapeMemory

    /// Planes per card row: three colour planes, plus alpha when the layer has one.
    var planes: Int { hasAlpha ? 4 : 3 }

    /// The grid pixels the layer can touch (not clipped to the grid).
    ///
    /// On a coarse card, grid pixel `x` lies between card pixels `⌊(x − ⌊scale/2⌋)/scale⌋` and the next, so the box
    /// grows by one card pixel.
    var gridBox: CardBox {
        guard scale > 1 else { return box }
        let h = scale / 2
        return CardBox(
            x0: (box.x0 - 1) * scale + h, y0: (box.y0 - 1) * scale + h, width: (box.width + 1) * scale,
            height: (box.height + 1) * scale)
    }

    /// How far (grid pixels) the layer's blur and interpolation reach beyond a painted pixel.
    var gridSupport: Int { (blur?.support ?? 0) * scale + (scale > 1 ? scale : 0) }

    /// The card scale for a defocus blur of standard deviation `sigma` grid pixels: the largest `s` that leaves at
    /// least about two card pixels of blur (so the card holds nothing the blur would not remove), 1 below σ = 4.
    ///
    /// An edge's profile then follows the Gaussian to 0.7 % of its step, closer than the three box passes on the grid
    /// (1 %), whose wide boxes are less Gaussian than narrow ones convolved with the tent.
    static func scale(sigma: Double) -> Int { min(64, max(1, Int(sigma / 2))) }

    /// The blur on a card of `scale` that, with the card's pixel box and the linear interpolation back to the
    /// grid, gives an edge the spread of a grid pixel's box and a Gaussian of `sigma`: variances add, the
    /// card pixel contributes s²/12 and the interpolation (a tent) s²/6, the grid pixel 1/12.
    static func cardSigma(sigma: Double, scale s: Int) -> Double {
        guard s > 1 else { return sigma }
        let d = Double(s)
        return (max(sigma * sigma + 1.0 / 12 - d * d / 4, 0)).squareRoot() / d
    }
}

/// A rectangle of grid pixels.
struct CardBox: Sendable, Equatable {
    var x0: Int, y0: Int, width: Int, height: Int
}

/// A shape ready to paint: its kernel, the card pixels it may cover, and the mapping of the time sample.
struct ShapeSpan: Sendable {
    let kernel: ShapeKernel
    /// Columns `x0..<x1` and rows `y0..<y1` of the card.
    let x0: Int, x1: Int, y0: Int, y1: Int
    /// Scene position of the centre of card pixel (x0, 0), and the move per pixel along a row and a column.
    let origin: SIMD2<Double>
    let dx: SIMD2<Double>
    let dy: SIMD2<Double>
}

extension SceneRenderer {
    /// Plans for `layers` (indices into the scene, back to front) on the request's grid.
    ///
    /// With `atRest`, the camera does not move (the grid is the scene seen by a still camera) and one time sample is
    /// used.
    func layerPlans(_ request: RenderRequest, layers: [Int], atRest: Bool) -> [LayerPlan?] {
        var matrices: [Illuminant: Matrix3x3] = [:]
        func matrix(_ i: Illuminant) -> Matrix3x3 {
            if let m = matrices[i] { return m }
            let m = request.response.coefficientMatrix(under: i)
            matrices[i] = m
            return m
        }
        return layers.map { index -> LayerPlan? in
            let layer = scene.layers[index]
            let light = scene.light(for: layer)
            var m = (light.illuminance / Double.pi) * matrix(light.illuminant)
            if let flash = request.flash {
                m = m + (flash.illuminance(atDistance: layer.distance) / Double.pi) * matrix(flash.illuminant)
            }
            let mf = m.entries.map(Float.init)
            let sigma = blurSigma(distance: layer.distance, request: request)
            let scale = request.allowsCoarseCards ? LayerPlan.scale(sigma: sigma) : 1
            let card = scale > 1 ? request.coarsened(by: scale) : request
            let blur = BlurPlan(sigma: LayerPlan.cardSigma(sigma: sigma, scale: scale))
            let margin = (blur?.support ?? 0) + 2
            let times =
                atRest ? [card.exposureStart + card.exposureDuration / 2] : motionTimes(layer: layer, request: card)
            let maps = times.map { mapping(layer: layer, time: $0, request: card, atRest: atRest) }
            guard let box = cardBounds(layer: layer, maps: maps, margin: margin, width: card.width, height: card.height)
            else { return nil }
            let memory = ShapeMemory()
            let samples = maps.map { map in
                shapeSpans(layer: layer, map: map, matrix: mf, box: box, memory: memory)
            }
            return LayerPlan(
                box: box, scale: scale, hasAlpha: !layer.isOpaqueBackground, blur: blur, samples: samples,
                memory: memory)
        }
    }

    /// The blur standard deviation in output pixels for a layer at `distance`.
    func blurSigma(distance: Double, request: RenderRequest) -> Double {
        guard let o = request.optics else { return 0 }
        let c = o.lens.blurDiameter(objectDistance: distance, focusDistance: o.focusDistance)
        guard c.isFinite else { return 200 }
        let pixelMM = o.sensorWidth * request.sceneUnitsPerPixel
        return min(c / pixelMM / 2.4, 400)
    }

    /// The pixel → layer-coordinate mapping for a layer at time `t` (with the camera still when `atRest`).
    func mapping(layer: SceneLayer, time t: Double, request: RenderRequest, atRest: Bool = false) -> PixelMapping {
        let s = request.sceneUnitsPerPixel
        let sy = request.regionSize.y / Double(request.height)
        let angles = atRest ? .zero : scene.cameraMotion.angles(at: t)
        let f = request.focalLengthInFrameWidths
        // Turning moves every layer by f·angle; sliding by T moves a layer at distance Z by f·T/Z (parallax).
        let slide = atRest ? .zero : scene.cameraMotion.translation(at: t) * (f / layer.distance)
        let shift = SIMD2(-angles.x * f, -angles.y * f) - slide
        let roll = angles.z
        let cr = Double.cos(-roll)
        let sr = Double.sin(-roll)
        let center = SIMD2(0.5, Scene.frameHeight / 2)
        let o = layer.motion.offset(at: t)
        func rot(_ v: SIMD2<Double>) -> SIMD2<Double> { SIMD2(cr * v.x - sr * v.y, sr * v.x + cr * v.y) }
        let a = rot(SIMD2(s, 0))
        let b = rot(SIMD2(0, sy))
        let c = rot(request.regionOrigin - center - shift) + center - o
        return PixelMapping(dx: a, dy: b, origin: c, pixel: s)
    }

    /// Stratified sample times over the exposure, enough that motion moves less than ~¾ pixel between samples.
    func motionTimes(layer: SceneLayer, request: RenderRequest) -> [Double] {
        let t0 = request.exposureStart
        let d = request.exposureDuration
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

    func cardBounds(layer: SceneLayer, maps: [PixelMapping], margin: Int, width w: Int, height h: Int) -> CardBox? {
        let limit = (x0: -margin, y0: -margin, x1: w + margin, y1: h + margin)
        var lo = SIMD2<Double>(repeating: .infinity)
        var hi = SIMD2<Double>(repeating: -.infinity)
        for shape in layer.shapes {
            guard let b = shape.paintBounds(pixel: maps[0].pixel) else {
                lo = SIMD2(Double(limit.x0), Double(limit.y0))
                hi = SIMD2(Double(limit.x1), Double(limit.y1))
                break
            }
            for map in maps {
                let (l, u) = map.pixelBounds(of: b)
                lo = pointwiseMin(lo, l)
                hi = pointwiseMax(hi, u)
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

    /// The shapes of `layer` with the card pixels each may cover under `map` (their kernels pointing into `memory`).
    func shapeSpans(layer: SceneLayer, map: PixelMapping, matrix: [Float], box: CardBox, memory: ShapeMemory)
        -> [ShapeSpan]
    {
        var spans: [ShapeSpan] = []
        for shape in layer.shapes {
            var rx0 = 0
            var ry0 = 0
            var rx1 = box.width
            var ry1 = box.height
            if let b = shape.paintBounds(pixel: map.pixel) {
                let (lo, hi) = map.pixelBounds(of: b)
                rx0 = max(rx0, Int((lo.x - 2).rounded(.down)) - box.x0)
                ry0 = max(ry0, Int((lo.y - 2).rounded(.down)) - box.y0)
                rx1 = min(rx1, Int((hi.x + 2).rounded(.up)) - box.x0)
                ry1 = min(ry1, Int((hi.y + 2).rounded(.up)) - box.y0)
            }
            guard rx1 > rx0, ry1 > ry0 else { continue }
            spans.append(
                ShapeSpan(
                    kernel: ShapeKernel(shape: shape, matrix: matrix, pixel: map.pixel, memory: memory), x0: rx0,
                    x1: rx1, y0: ry0, y1: ry1,
                    origin: map.scene(Double(box.x0 + rx0) + 0.5, Double(box.y0) + 0.5), dx: map.dx, dy: map.dy))
        }
        return spans
    }
}

extension Shape {
    /// The scene-unit bounds that can receive paint when an output pixel is `pixel` scene units wide, nil for an
    /// infinite plane.
    ///
    /// An image fill also limits it, and a depth slice of an image to the blocks of the sampled level that hold its
    /// depths (one texel more each side, for the nearest-texel depth test), so a slice of a photograph paints and
    /// blurs only around its part of the picture.
    func paintBounds(pixel: Double) -> (min: SIMD2<Double>, max: SIMD2<Double>)? {
        guard var bounds = geometry.bounds else { return nil }
        if case .image(let image, let origin, let size, let depthRange) = fill {
            bounds = (pointwiseMax(bounds.min, origin), pointwiseMin(bounds.max, origin + size))
            if let depthRange {
                let l = image.level(pixel: pixel, size: size.x)
                let range = Float(depthRange.lowerBound)...Float(depthRange.upperBound)
                guard let t = image.texelBounds(depth: range, level: l) else { return (origin, origin) }
                let level = image.levels[l]
                let texel = size / SIMD2(Double(level.width), Double(level.height))
                let lo = origin + SIMD2(Double(t.x0 - 1), Double(t.y0 - 1)) * texel
                let hi = origin + SIMD2(Double(t.x1 + 1), Double(t.y1 + 1)) * texel
                bounds = (pointwiseMax(bounds.min, lo), pointwiseMin(bounds.max, hi))
            }
        }
        return bounds
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

    /// The pixel-space bounding box of a scene-space box.
    func pixelBounds(of b: (min: SIMD2<Double>, max: SIMD2<Double>)) -> (SIMD2<Double>, SIMD2<Double>) {
        var lo = SIMD2<Double>(repeating: .infinity)
        var hi = SIMD2<Double>(repeating: -.infinity)
        for corner in [b.min, SIMD2(b.max.x, b.min.y), SIMD2(b.min.x, b.max.y), b.max] {
            let p = pixel(of: corner)
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return (lo, hi)
    }
}
