import LuxColor

/// The built-in procedural scenes.
extension Scene {
    /// Where the ColorChecker patches sit in ``chart(light:)`` and ``colorChecker(light:)``: patch `i`
    /// (0…23, row by row) covers this rectangle in scene units.
    public static func colorCheckerPatch(_ i: Int) -> (origin: SIMD2<Double>, size: SIMD2<Double>) {
        let patch = 0.085
        let gap = 0.015
        let origin = SIMD2(0.04 + Double(i % 6) * (patch + gap), 0.05 + Double(i / 6) * (patch + gap))
        return (origin, SIMD2(patch, patch))
    }

    /// The centre and radius of the Siemens star in ``chart(light:)``.
    public static let chartStar = (center: SIMD2(0.815, 0.2), radius: 0.15)
    /// The centre of the slanted-edge square (side 0.16, rotated 5°) in ``chart(light:)``.
    public static let chartEdgeCenter = SIMD2(0.815, 0.56)

    static func colorCheckerShapes() -> [Shape] {
        var shapes = [
            Shape(
                .rectangle(origin: SIMD2(0.02, 0.03), size: SIMD2(0.625, 0.425)), color: SurfaceColor(reflectance: 0.03)
            )
        ]
        for i in 0..<24 {
            let p = colorCheckerPatch(i)
            shapes.append(
                Shape(
                    .rectangle(origin: p.origin, size: p.size), color: SurfaceColor(lab: ColorChecker.classic24[i].lab))
            )
        }
        return shapes
    }

    /// A test chart 1 m away: the 24 ColorChecker patches (from their published Lab values), a 36-spoke
    /// Siemens star, a slanted-edge square, a grey ramp and an 18 % grey card, on an 18 % grey board.
    public static func chart(light: Light = Light(.d65, lux: 1000)) -> Scene {
        var shapes = [Shape(.everywhere, color: SurfaceColor(reflectance: 0.18))]
        shapes += colorCheckerShapes()
        let star = chartStar
        shapes.append(
            Shape(
                .ellipse(center: star.center, radii: SIMD2(repeating: star.radius + 0.01)),
                color: SurfaceColor(reflectance: 0.85)))
        shapes.append(
            Shape(
                .siemensStar(center: star.center, radius: star.radius, spokes: 36),
                color: SurfaceColor(reflectance: 0.04)))
        shapes.append(
            Shape(
                .rectangle(origin: SIMD2(0.69, 0.43), size: SIMD2(0.25, 0.26)), color: SurfaceColor(reflectance: 0.85)))
        shapes.append(
            Shape(
                .rotatedSquare(center: chartEdgeCenter, side: 0.16, degrees: 5), color: SurfaceColor(reflectance: 0.04))
        )
        shapes.append(
            Shape(
                .rectangle(origin: SIMD2(0.04, 0.5), size: SIMD2(0.585, 0.07)),
                fill: .linearGradient(
                    start: SIMD2(0.04, 0.5), from: SurfaceColor(reflectance: 0.02), end: SIMD2(0.625, 0.5),
                    to: SurfaceColor(reflectance: 0.9))))
        shapes.append(
            Shape(
                .rectangle(origin: SIMD2(0.04, 0.6), size: SIMD2(0.585, 0.11)), color: SurfaceColor(reflectance: 0.18)))
        return Scene(name: "chart", layers: [SceneLayer(name: "chart", distance: 1.0, shapes: shapes)], light: light)
    }

    /// The ColorChecker alone, filling most of the frame, 1 m away on a black surround.
    public static func colorChecker(light: Light = Light(.d65, lux: 1000)) -> Scene {
        var shapes = [Shape(.everywhere, color: SurfaceColor(reflectance: 0.03))]
        shapes += colorCheckerShapes()
        return Scene(
            name: "color-checker", layers: [SceneLayer(name: "chart", distance: 1.0, shapes: shapes)], light: light)
    }

    /// An 18 % grey card filling the frame, 1 m away.
    public static func grayCard(light: Light = Light(.d65, lux: 500), reflectance: Double = 0.18) -> Scene {
        Scene(
            name: "gray-card",
            layers: [
                SceneLayer(
                    name: "card", distance: 1.0,
                    shapes: [Shape(.everywhere, color: SurfaceColor(reflectance: reflectance))])
            ],
            light: light)
    }

    /// A resolution target 1 m away: a 48-spoke Siemens star in the centre and four slanted-edge squares.
    public static func resolutionTarget(light: Light = Light(.d65, lux: 1000)) -> Scene {
        var shapes = [Shape(.everywhere, color: SurfaceColor(reflectance: 0.85))]
        shapes.append(
            Shape(
                .siemensStar(center: SIMD2(0.5, 0.375), radius: 0.3, spokes: 48), color: SurfaceColor(reflectance: 0.04)
            ))
        for (x, y) in [(0.1, 0.12), (0.9, 0.12), (0.1, 0.63), (0.9, 0.63)] {
            shapes.append(
                Shape(
                    .rotatedSquare(center: SIMD2(x, y), side: 0.12, degrees: 5), color: SurfaceColor(reflectance: 0.04))
            )
        }
        return Scene(
            name: "resolution", layers: [SceneLayer(name: "target", distance: 1.0, shapes: shapes)], light: light)
    }

    /// Ramps 1 m away: a grey ramp from 2 % to 95 % across the top half, and red, green and blue ramps below.
    public static func gradient(light: Light = Light(.d65, lux: 1000)) -> Scene {
        var shapes = [Shape(.everywhere, color: SurfaceColor(reflectance: 0.18))]
        shapes.append(
            Shape(
                .rectangle(origin: .zero, size: SIMD2(1, 0.375)),
                fill: .linearGradient(
                    start: .zero, from: SurfaceColor(reflectance: 0.02), end: SIMD2(1, 0),
                    to: SurfaceColor(reflectance: 0.95))))
        let ramps: [SIMD3<Double>] = [SIMD3(0.9, 0.05, 0.05), SIMD3(0.05, 0.9, 0.05), SIMD3(0.05, 0.05, 0.9)]
        for (i, top) in ramps.enumerated() {
            let y = 0.375 + Double(i) * 0.125
            shapes.append(
                Shape(
                    .rectangle(origin: SIMD2(0, y), size: SIMD2(1, 0.125)),
                    fill: .linearGradient(
                        start: SIMD2(0, y), from: SurfaceColor(reflectance: 0.02), end: SIMD2(1, y),
                        to: SurfaceColor(coefficients: top))))
        }
        return Scene(name: "gradient", layers: [SceneLayer(name: "ramps", distance: 1.0, shapes: shapes)], light: light)
    }

    /// The distances of the still life's objects, in metres.
    public static let stillLifeDistances = (wall: 3.0, table: 1.4, book: 1.0, vase: 0.6, orange: 0.35)

    /// A still life by a window: a textured wall (3 m), a table (1.4 m), a book (1 m), a vase (0.6 m) and an
    /// orange (0.35 m), every surface textured so contrast autofocus has detail to work on.
    public static func stillLife(light: Light = Light(.daylight(kelvin: 5500), lux: 600)) -> Scene {
        let d = stillLifeDistances
        let wall = SceneLayer(
            name: "wall", distance: d.wall,
            shapes: [
                Shape(
                    .everywhere,
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.55, 0.5, 0.42)), contrast: 0.25, featureSize: 0.01, seed: 11)),
                Shape(
                    .rectangle(origin: SIMD2(0.05, 0.08), size: SIMD2(0.2, 0.15)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.1, 0.2, 0.45)), contrast: 0.5, featureSize: 0.008, seed: 12)),
            ])
        let table = SceneLayer(
            name: "table", distance: d.table,
            shapes: [
                Shape(
                    .rectangle(origin: SIMD2(-0.1, 0.52), size: SIMD2(1.2, 0.4)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.32, 0.18, 0.08)), contrast: 0.4, featureSize: 0.006, seed: 13))
            ])
        let book = SceneLayer(
            name: "book", distance: d.book,
            shapes: [
                Shape(
                    .rectangle(origin: SIMD2(0.62, 0.36), size: SIMD2(0.26, 0.2)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.45, 0.06, 0.05)), contrast: 0.35, featureSize: 0.004, seed: 14)
                ),
                Shape(
                    .rectangle(origin: SIMD2(0.64, 0.42), size: SIMD2(0.22, 0.03)),
                    color: SurfaceColor(linearSRGB: SIMD3(0.8, 0.7, 0.3))),
            ])
        let vase = SceneLayer(
            name: "vase", distance: d.vase,
            shapes: [
                Shape(
                    .ellipse(center: SIMD2(0.3, 0.4), radii: SIMD2(0.08, 0.16)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.05, 0.3, 0.3)), contrast: 0.4, featureSize: 0.004, seed: 15)),
                Shape(
                    .rectangle(origin: SIMD2(0.27, 0.2), size: SIMD2(0.06, 0.06)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.05, 0.3, 0.3)), contrast: 0.4, featureSize: 0.004, seed: 15)),
            ])
        let orange = SceneLayer(
            name: "orange", distance: d.orange,
            shapes: [
                Shape(
                    .ellipse(center: SIMD2(0.56, 0.6), radii: SIMD2(0.09, 0.09)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.75, 0.28, 0.02)), contrast: 0.3, featureSize: 0.003, seed: 16))
            ])
        return Scene(
            name: "still-life", layers: [wall, table, book, vase, orange], light: light,
            sound: SoundSource(toneFrequency: 440, seed: 21))
    }

    /// A room lit by tungsten light (3000 K, 150 lx) with a window onto a sunlit street (daylight 6500 K,
    /// 20 000 lx): about 11 EV between the dark corners and the sky.
    public static func hdrWindow() -> Scene {
        let inside = Light(.planckian(kelvin: 3000), lux: 150)
        let outside = SceneLayer(
            name: "outside", distance: 30,
            shapes: [
                Shape(
                    .everywhere,
                    fill: .linearGradient(
                        start: SIMD2(0, 0.1), from: SurfaceColor(linearSRGB: SIMD3(0.35, 0.5, 0.8)), end: SIMD2(0, 0.5),
                        to: SurfaceColor(linearSRGB: SIMD3(0.75, 0.8, 0.85)))),
                Shape(
                    .rectangle(origin: SIMD2(0.28, 0.3), size: SIMD2(0.2, 0.3)),
                    fill: .texture(SurfaceColor(reflectance: 0.3), contrast: 0.4, featureSize: 0.006, seed: 31)),
                Shape(
                    .rectangle(origin: SIMD2(0.52, 0.25), size: SIMD2(0.25, 0.35)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.5, 0.35, 0.25)), contrast: 0.4, featureSize: 0.006, seed: 32)),
                Shape(
                    .ellipse(center: SIMD2(0.45, 0.5), radii: SIMD2(0.08, 0.1)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.08, 0.25, 0.05)), contrast: 0.5, featureSize: 0.004, seed: 33)),
            ],
            light: Light(.daylight(kelvin: 6500), lux: 20000))
        let wallColor = Fill.texture(
            SurfaceColor(linearSRGB: SIMD3(0.6, 0.55, 0.45)), contrast: 0.15, featureSize: 0.01, seed: 34)
        let opening = (x0: 0.3, y0: 0.12, x1: 0.75, y1: 0.55)
        let wall = SceneLayer(
            name: "wall", distance: 3,
            shapes: [
                Shape(.rectangle(origin: SIMD2(-0.1, -0.1), size: SIMD2(1.2, opening.y0 + 0.1)), fill: wallColor),
                Shape(.rectangle(origin: SIMD2(-0.1, opening.y1), size: SIMD2(1.2, 0.4)), fill: wallColor),
                Shape(
                    .rectangle(origin: SIMD2(-0.1, opening.y0), size: SIMD2(opening.x0 + 0.1, opening.y1 - opening.y0)),
                    fill: wallColor),
                Shape(
                    .rectangle(origin: SIMD2(opening.x1, opening.y0), size: SIMD2(0.4, opening.y1 - opening.y0)),
                    fill: wallColor),
                Shape(
                    .rectangle(origin: SIMD2(0.52, opening.y0), size: SIMD2(0.012, opening.y1 - opening.y0)),
                    color: SurfaceColor(reflectance: 0.08)),
                Shape(
                    .rectangle(origin: SIMD2(opening.x0, 0.33), size: SIMD2(opening.x1 - opening.x0, 0.012)),
                    color: SurfaceColor(reflectance: 0.08)),
                Shape(
                    .rectangle(origin: SIMD2(-0.1, 0.62), size: SIMD2(1.2, 0.3)), color: SurfaceColor(reflectance: 0.05)
                ),
            ])
        let plant = SceneLayer(
            name: "plant", distance: 1.5,
            shapes: [
                Shape(
                    .rectangle(origin: SIMD2(0.13, 0.5), size: SIMD2(0.1, 0.12)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.5, 0.25, 0.15)), contrast: 0.3, featureSize: 0.004, seed: 35)),
                Shape(
                    .ellipse(center: SIMD2(0.18, 0.4), radii: SIMD2(0.1, 0.12)),
                    fill: .texture(
                        SurfaceColor(linearSRGB: SIMD3(0.06, 0.3, 0.06)), contrast: 0.6, featureSize: 0.003, seed: 36)),
            ])
        let lamp = SceneLayer(
            name: "lamp", distance: 2,
            shapes: [
                Shape(
                    .ellipse(center: SIMD2(0.88, 0.35), radii: SIMD2(0.05, 0.04)), color: SurfaceColor(reflectance: 8))
            ])
        return Scene(
            name: "hdr-window", layers: [outside, wall, plant, lamp], light: inside,
            sound: SoundSource(toneFrequency: 220, seed: 22))
    }

    /// The still life at night: 3 lx of 2700 K tungsten light and a candle flame in the frame.
    public static func lowLight() -> Scene {
        var scene = stillLife(light: Light(.planckian(kelvin: 2700), lux: 3))
        scene.name = "low-light"
        scene.layers.append(
            SceneLayer(
                name: "candle", distance: 0.8,
                shapes: [
                    Shape(
                        .rectangle(origin: SIMD2(0.43, 0.38), size: SIMD2(0.03, 0.12)),
                        color: SurfaceColor(reflectance: 0.8)),
                    Shape(
                        .ellipse(center: SIMD2(0.445, 0.35), radii: SIMD2(0.008, 0.02)),
                        color: SurfaceColor(reflectance: 400)),
                ]))
        scene.sound = SoundSource(toneFrequency: 110, toneAmplitude: 0.05, noiseAmplitude: 0.02, seed: 23)
        return scene
    }

    /// The names of the built-in scenes, for ``named(_:)``.
    public static let catalogNames = [
        "chart", "color-checker", "gray-card", "resolution", "gradient", "still-life", "hdr-window", "low-light",
    ]

    /// A built-in scene by name.
    ///
    /// - Throws: ``SceneError/unknownScene(name:known:)`` naming the scenes that exist.
    public static func named(_ name: String) throws(SceneError) -> Scene {
        switch name {
        case "chart": return chart()
        case "color-checker", "colorchecker": return colorChecker()
        case "gray-card", "grey-card": return grayCard()
        case "resolution": return resolutionTarget()
        case "gradient": return gradient()
        case "still-life": return stillLife()
        case "hdr-window": return hdrWindow()
        case "low-light": return lowLight()
        default: throw .unknownScene(name: name, known: catalogNames)
        }
    }

    /// A scene made of an image at one distance (or, with a depth map, sliced into layers by depth), lit by `light`.
    ///
    /// The image fills the frame (cropped to 4:3 around its centre). A depth map is cut into `slices` intervals equal
    /// in dioptres between its nearest and farthest distance; each interval that holds pixels becomes a layer at their
    /// mean dioptre, so a map of a few distinct distances puts each part at its own distance.
    public static func image(
        _ image: SceneImage, distance: Double = 2, light: Light = Light(.d65, lux: 1000), slices: Int = 8
    ) -> Scene {
        let aspect = Double(image.width) / Double(image.height)
        // Fill the 1 × 0.75 frame, cropping the longer side.
        let size = aspect > 4.0 / 3.0 ? SIMD2(0.75 * aspect, 0.75) : SIMD2(1, 1 / aspect)
        let origin = SIMD2((1 - size.x) / 2, (0.75 - size.y) / 2)
        guard image.hasDepth, slices > 1 else {
            return Scene(
                name: "image",
                layers: [
                    SceneLayer(
                        name: "image", distance: distance,
                        shapes: [
                            Shape(
                                .rectangle(origin: origin, size: size),
                                fill: .image(image, origin: origin, size: size, depthRange: nil))
                        ])
                ],
                light: light)
        }
        let (near, far) = image.depthExtremes
        // Slices equal in dioptres (defocus is linear in 1/distance), far to near.
        let dNear = 1 / max(near, 0.01)
        let dFar = 1 / max(far, 0.01)
        let bounds = (0...slices).map { dFar + (dNear - dFar) * Double($0) / Double(slices) }
        // Each slice stands at the mean dioptre of its pixels (its blur is then the mean blur of what it holds, and
        // a map of a few distances puts each at its own distance); a slice with no pixels is left out.
        let mean = image.meanDioptres(from: dFar, to: dNear, slices: slices)
        var layers: [SceneLayer] = []
        for k in 0..<slices {
            guard let dioptres = mean[k] else { continue }
            let lo = 1 / bounds[k + 1]
            let hi = k == 0 ? Double.greatestFiniteMagnitude : 1 / bounds[k]
            let range = (k == slices - 1 ? 0 : lo)...hi
            layers.append(
                SceneLayer(
                    name: "slice \(k)", distance: 1 / dioptres,
                    shapes: [
                        Shape(
                            .rectangle(origin: origin, size: size),
                            fill: .image(image, origin: origin, size: size, depthRange: range))
                    ]))
        }
        return Scene(name: "image", layers: layers, light: light)
    }
}

extension SceneImage {
    /// The nearest and farthest depth in the map (metres), or (1, 1) without one.
    var depthExtremes: (Double, Double) {
        guard hasDepth else { return (1, 1) }
        let l = levels[0]
        var lo = Float.greatestFiniteMagnitude
        var hi: Float = 0
        for y in 0..<l.height {
            let r = l.row(3, y)
            for x in 0..<l.width where r[x] > 0 {
                lo = min(lo, r[x])
                hi = max(hi, r[x])
            }
        }
        return lo <= hi ? (Double(lo), Double(hi)) : (1, 1)
    }

    /// The mean dioptre (1/metres) of the depth map's pixels in each of `slices` equal intervals from `far` to `near`
    /// dioptres (pixels beyond either end count in the end intervals), `nil` for an interval no pixel falls in.
    func meanDioptres(from far: Double, to near: Double, slices n: Int) -> [Double?] {
        var sum = [Double](repeating: 0, count: n)
        var count = [Int](repeating: 0, count: n)
        let perSlice = Double(n) / max(near - far, .ulpOfOne)
        let l = levels[0]
        for y in 0..<l.height {
            let r = l.row(3, y)
            for x in 0..<l.width where r[x] > 0 {
                let d = 1 / Double(r[x])
                let k = Int(min(Double(n - 1), max(0, (d - far) * perSlice)))
                sum[k] += d
                count[k] += 1
            }
        }
        return (0..<n).map { count[$0] > 0 ? sum[$0] / Double(count[$0]) : nil }
    }
}
