import ArgumentParser
import CLuxKernels
import Foundation
import Lux

/// `lux bench filters`: the heavy built-in filters on a 12 MP photo against vips and ImageMagick (issue
/// "Built-in filters I", Benchmarks).
///
/// Every tool runs file to file. Lux's worker streams a raw RGB copy of the photo through an `ImageProvider`
/// (rows read as tiles need them), renders the filter to 8-bit sRGB strip by strip and writes raw RGB; `inner` is
/// that whole run without process start-up. vips reads and writes its native `.v` format (memory-mapped, its
/// cheapest I/O), ImageMagick TIFF. Lux computes on the encoded sRGB values, as the peers do.
enum FiltersBenchSuite: BenchSuite {
    static let name = "filters"
    static let summary =
        "Gaussian σ 2/10/50, box, median, morphology, unsharp, area average, Lanczos vs vips and ImageMagick; "
        + "the filters of Built-in filters II"

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let inputs = context.inputs.path
        let out = context.scratch.path
        let photo = inputs + "/render-I.tif"
        let photoRaw = inputs + "/render-I.rgb"
        let photoV = inputs + "/render-I.v"
        try RenderBench.prepare(photo, photoRaw, inputs + "/render-I5.tif")
        if !FileManager.default.fileExists(atPath: photoV) {
            let m = try ProcessRunner.run(["vips", "copy", photo, photoV])
            guard m.exitStatus == 0 else { throw ValidationError("vips copy \(photo) failed") }
        }
        let box = inputs + "/filters-box21.con"
        try ("21 1 21 0\n" + String(repeating: "1 ", count: 21) + "\n")
            .write(toFile: box, atomically: true, encoding: .utf8)
        let square = inputs + "/filters-square7.con"
        try ("7 7 1 0\n" + String(repeating: String(repeating: "255 ", count: 7) + "\n", count: 7))
            .write(toFile: square, atomically: true, encoding: .utf8)
        func lux(_ job: String, _ options: [String] = []) -> [String] {
            ["bench-worker", name, job, photoRaw, "4032", "3024", out + "/lux.rgb"] + options
        }
        func vips(_ label: String, _ args: [String]) -> BenchCase.Peer {
            .init(name: label, command: ["vips"] + args)
        }
        func magick(_ label: String, _ args: [String]) -> BenchCase.Peer {
            .init(name: label, command: ["convert", photo] + args + [out + "/im.tif"])
        }
        var cases: [BenchCase] = []
        for sigma in [2, 10, 50] {
            var peers = [vips("vips gaussblur", ["gaussblur", photoV, out + "/g.v", "\(sigma)"])]
            // At σ = 50 vips' float path and ImageMagick's -blur take minutes per run on this machine.
            if sigma <= 10 {
                peers.append(
                    vips(
                        "vips gaussblur float",
                        ["gaussblur", photoV, out + "/gf.v", "\(sigma)", "--precision", "float"]))
                peers.append(magick("convert -blur", ["-blur", "0x\(sigma)"]))
            }
            cases.append(
                BenchCase(
                    suite: name, name: "GaussianBlur σ=\(sigma), 12 MP", lux: lux("gauss", ["\(sigma)"]), peers: peers,
                    megapixels: 12.19, goal: "no slower than vips gaussblur"))
        }
        cases += [
            BenchCase(
                suite: name, name: "BoxBlur r=10 (21×21), 12 MP", lux: lux("box", ["10"]),
                // ImageMagick's -statistic mean 21x21 takes minutes per run here.
                peers: [vips("vips convsep 21-tap box", ["convsep", photoV, out + "/b.v", box])], megapixels: 12.19,
                goal: "cost independent of radius; no slower than vips"),
            BenchCase(
                suite: name, name: "MedianFilter 3×3, 12 MP", lux: lux("median"),
                peers: [
                    vips("vips rank 3 3 4", ["rank", photoV, out + "/m.v", "3", "3", "4"]),
                    magick("convert -statistic median 3x3", ["-statistic", "median", "3x3"]),
                ], megapixels: 12.19, goal: "no slower than vips"),
            BenchCase(
                suite: name, name: "MorphologyRectangleMaximum 7×7, 12 MP", lux: lux("dilate", ["7"]),
                peers: [
                    vips("vips morph dilate 7×7", ["morph", photoV, out + "/d.v", square, "dilate"]),
                    magick("convert -morphology Dilate Square:3", ["-morphology", "Dilate", "Square:3"]),
                ], megapixels: 12.19, goal: "no slower than vips"),
            BenchCase(
                suite: name, name: "UnsharpMask radius 2.5 intensity 0.5, 12 MP", lux: lux("unsharp"),
                peers: [
                    vips("vips sharpen (LAB, different maths)", ["sharpen", photoV, out + "/s.v"]),
                    magick("convert -unsharp 0x2.5+0.5+0", ["-unsharp", "0x2.5+0.5+0"]),
                ], megapixels: 12.19, goal: "no slower than vips"),
            BenchCase(
                suite: name, name: "AreaAverage, 12 MP", lux: lux("average"),
                peers: [vips("vips avg", ["avg", photoV])], megapixels: 12.19, goal: "no slower than vips avg"),
            BenchCase(
                suite: name, name: "LanczosScaleTransform 12 MP → 1440×1080", lux: lux("lanczos"),
                peers: [
                    vips("vips resize (lanczos3)", ["resize", photoV, out + "/r.v", "0.35714285714"]),
                    magick("convert -filter Lanczos -resize", ["-filter", "Lanczos", "-resize", "1440x1080"]),
                ], megapixels: 12.19, goal: "no slower than vips resize"),
        ]
        // Built-in filters II: each new filter alone (no peer tool has them all); the goal is relative to the
        // GaussianBlur σ=10 case above.
        for filter in newFilters {
            cases.append(
                BenchCase(
                    suite: name, name: "\(filter), 12 MP", lux: lux("named", [filter]), peers: [], megapixels: 12.19,
                    goal: "under 3× GaussianBlur σ=10"))
        }
        return cases
    }

    /// The filters of "Built-in filters II" (not the barcode generators, which make a few hundred pixels; the light
    /// generators fill the photo's frame).
    static let newFilters = [
        "TwirlDistortion", "VortexDistortion", "BumpDistortion", "PinchDistortion", "HoleDistortion",
        "CircleSplashDistortion", "LightTunnel", "DisplacementDistortion", "FourfoldTranslatedTile",
        "FourfoldReflectedTile", "ParallelogramTile", "FourfoldRotatedTile", "EightfoldReflectedTile",
        "GlideReflectedTile", "AffineTile", "Kaleidoscope", "DotScreen", "CircularScreen", "HatchedScreen", "Pixellate",
        "DissolveTransition", "DisintegrateWithMaskTransition", "BarsSwipeTransition", "SixfoldRotatedTile",
        "SixfoldReflectedTile", "TriangleTile", "TriangleKaleidoscope", "PerspectiveTile", "HexagonalPixelate",
        "Crystallize", "Bloom", "Gloom", "Edges", "SpotLight", "BumpDistortionLinear", "CircularWrap", "CMYKHalftone",
        "SwipeTransition", "LineOverlay", "EdgeWork", "ComicEffect", "GlassDistortion", "HeightFieldFromMask",
        "ShadedMaterial", "TwelvefoldReflectedTile", "OpTile", "StretchCrop", "TorusLensDistortion", "GlassLozenge",
        "Droste", "Pointillize", "SpotColor", "DepthOfField", "LenticularHaloGenerator", "StarShineGenerator",
        "SunbeamsGenerator", "ModTransition", "CopyMachineTransition", "FlashTransition",
        "RippleTransition", "AccordionFoldTransition", "PageCurlTransition", "PageCurlWithShadowTransition",
    ]

    /// `filter` applied to `source` by name with ``parameters(_:_:)``.
    static func named(_ filter: String, _ source: Image) throws -> Image {
        let descriptor = try FilterRegistry.builtIn.descriptor(named: filter)
        // Generators make the photo's frame of their own.
        return try FilterRegistry.builtIn.apply(
            filter, to: descriptor.takesImage ? source : nil, parameters: try parameters(filter, source)
        ).cropped(to: source.extent)
    }

    /// The parameters the bench gives `filter` on `source`: centred on it, with effect sizes of a typical use on a
    /// 4032-pixel-wide photo, scaled to `source`'s width (so a small test frame gets the same picture).
    static func parameters(_ filter: String, _ source: Image) throws -> [String: FilterValue] {
        let e = source.extent
        let descriptor = try FilterRegistry.builtIn.descriptor(named: filter)
        // A length chosen for 12 MP, at this frame's scale (at least one pixel).
        func length(_ pixels: Double) -> FilterValue { .number(max(1, pixels * e.width / 4032)) }
        var candidates: [String: FilterValue] = [
            "center": .vector([e.midX, e.midY]), "targetImage": .image(source.colorInvert()),
            "mask": .image(source), "displacementImage": .image(source), "time": 0.5, "texture": .image(source),
            // A 256-pixel sphere: the shading image is read whole by every tile.
            "shadingImage": .image(
                Image.radialGradient(center: Point(x: 128, y: 128), radius0: 0, radius1: 128).cropped(
                    to: Rect(x: 0, y: 0, width: 256, height: 256))),
        ]
        // A distortion's reach that shows on 12 MP; other filters keep their own default radius unless set below (a
        // stylize or blur radius of 1000 is no typical use: EdgeWork took 10 s at 1000 and 0.25 s at its default).
        if descriptor.categories.contains(.distortionEffect) { candidates["radius"] = length(1000) }
        if filter.hasSuffix("Tile") { candidates["width"] = length(200) }
        // The page is the photo; a curl of a typical size.
        if filter.hasPrefix("PageCurl") {
            (candidates["extent"], candidates["radius"]) = ([e.minX, e.minY, e.width, e.height], length(300))
        }
        if filter == "Pixellate" || filter == "HexagonalPixelate" { candidates["scale"] = length(8) }
        // Cell and blur sizes of a typical use, not a distortion's reach.
        if ["Crystallize", "Bloom", "Gloom", "Pointillize"].contains(filter) { candidates["radius"] = length(20) }
        if filter == "DepthOfField" { candidates["radius"] = length(6) }
        // A 16:9 frame from the 4:3 photo; a ring, a lozenge and an inset of a size that shows on 12 MP.
        candidates["size"] = .vector([e.width, e.width * 9 / 16])
        if filter == "TriangleKaleidoscope" { candidates["size"] = length(700) }  // a triangle's size (Core Image's)
        if filter == "TorusLensDistortion" { candidates["width"] = length(200) }
        let reach = e.width * 1000 / 4032
        candidates["point0"] = .vector([e.midX - reach, e.midY])
        candidates["point1"] = .vector([e.midX + reach, e.midY])
        candidates["insetPoint0"] = .vector([e.midX - e.width / 6, e.midY - e.height / 6])
        candidates["insetPoint1"] = .vector([e.midX + e.width / 6, e.midY + e.height / 6])
        let accepted = Set(descriptor.parameters.map(\.name))
        return candidates.filter { accepted.contains($0.key) }
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        guard arguments.count >= 4, let w = Int(arguments[1]), let h = Int(arguments[2]) else {
            throw ValidationError("usage: bench-worker filters JOB RAW WIDTH HEIGHT OUT [OPTION]")
        }
        let threads = ProcessInfo.processInfo.environment["LUX_THREADS"].flatMap(Int.init)
        let option = arguments.count > 4 ? Double(arguments[4]) : nil
        let t0 = monotonicSeconds()
        let c0 = RenderBench.cpuSeconds()
        let source = Image(provider: try RawRGBFile(path: arguments[0], width: w, height: h))
        let e = source.extent
        let image: Image
        switch job {
        case "gauss": image = source.clampedToExtent().gaussianBlur(radius: option ?? 10).cropped(to: e)
        case "box": image = source.clampedToExtent().boxBlur(radius: option ?? 10).cropped(to: e)
        case "median": image = source.medianFilter()
        case "dilate":
            let k = option ?? 7
            image = source.clampedToExtent().morphologyRectangleMaximum(width: k, height: k).cropped(to: e)
        case "unsharp": image = source.unsharpMask(radius: 2.5, intensity: 0.5)
        case "average": image = source.areaAverage()
        case "lanczos": image = source.lanczosScaleTransform(scale: 1080.0 / 3024.0)
        case "named" where arguments.count > 4: image = try named(arguments[4], source)
        default: throw ValidationError("unknown filters job \(job)")
        }
        let context = RenderContext(
            options: RenderOptions(workingColorSpace: .sRGB, cacheIntermediates: false, threadCount: threads))
        guard let file = fopen(arguments[3], "wb") else { throw ValidationError("cannot write \(arguments[3])") }
        defer { fclose(file) }
        let bounds = image.extent.integral
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * Int(bounds.width))
        defer { line.deallocate() }
        let stats = try context.render(image, bounds: bounds, format: .rgba8, colorSpace: .sRGB) { strip in
            let b = strip.buffer
            b.withUnsafePlane { plane in
                for y in 0..<b.height {
                    lux_rgba8_to_rgb8(plane.row(y, as: UInt8.self), line, b.width)
                    fwrite(line, 1, 3 * b.width, file)
                }
            }
        }
        let t = monotonicSeconds() - t0
        print("\(job): \(String(format: "%.3f s, %.3f s CPU", t, RenderBench.cpuSeconds() - c0)); \(stats)")
        return t
    }
}
