import ArgumentParser
import Foundation
import Lux

/// `lux bench render`: the render engine's benchmarks (issue "Render engine", Benchmarks).
///
/// Lux's worker measures the render in memory (`inner`); its wall time also includes reading a raw copy
/// of the input that `vips` prepared. Peers run file to file on the same image.
enum RenderBench: BenchSuite {
    static let name = "render"
    static let summary = "fused colour kernels, Gaussian blur σ=10, Lanczos resize, the vips-bench pipeline"

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let inputs = context.inputs.path
        let out = context.scratch.path
        let photo = inputs + "/render-I.tif"
        let big = inputs + "/render-I5.tif"
        let photoRaw = inputs + "/render-I.rgb"
        try prepare(photo, photoRaw, big)
        let mask = inputs + "/render-sharpen.con"
        try "3 3 8 0\n-1 -1 -1\n-1 16 -1\n-1 -1 -1\n".write(toFile: mask, atomically: true, encoding: .utf8)
        let vipsBench =
            "vips crop \(big) \(out)/t1.v 100 100 4800 4800 && vips reduce \(out)/t1.v \(out)/t2.v 1.1111111 1.1111111 --kernel lanczos3 && vips conv \(out)/t2.v \(out)/vb.tif \(mask) --precision integer"
        return [
            BenchCase(
                suite: name, name: "fused 5 colour kernels, 12 MP RGBAh", lux: ["bench-worker", name, "fused"],
                peers: [],
                megapixels: 12.19, goal: "≤ 13 ms (AVX2+F16C ceiling 6.7 ms)"),
            BenchCase(
                suite: name, name: "Gaussian blur σ=10, 12 MP (Lux in memory)",
                lux: ["bench-worker", name, "gauss", photoRaw, "4032", "3024"],
                peers: [
                    .init(name: "vips gaussblur", command: ["vips", "gaussblur", photo, out + "/g.tif", "10"]),
                    .init(
                        name: "vips gaussblur float",
                        command: [
                            "vips", "gaussblur", photo, out + "/gf.tif", "10", "--precision", "float", "--min-ampl",
                            "0.01",
                        ]),
                ],
                megapixels: 12.19, goal: "no slower than vips gaussblur (0.31 s)"),
            BenchCase(
                suite: name, name: "resize 12 MP → 1440×1080 Lanczos3 (Lux in memory)",
                lux: ["bench-worker", name, "resize", photoRaw, "4032", "3024"],
                peers: [
                    .init(name: "vips resize", command: ["vips", "resize", photo, out + "/r.tif", "0.35714285714"])
                ],
                megapixels: 12.19, goal: "no slower than vips resize (0.14 s)"),
            BenchCase(
                suite: name,
                name: "vips-bench 5000² TIFF → TIFF crop/Lanczos 90 %/sharpen (streamed strips in and out)",
                lux: ["bench-worker", name, "vipsbench-tiff", big, out + "/lux-vb.tif"],
                peers: [
                    .init(name: "vips (3 commands via .v)", command: ["sh", "-c", vipsBench]),
                    .init(
                        name: "ImageMagick",
                        command: [
                            "convert", "\(big)[4800x4800+100+100]", "-filter", "Lanczos", "-resize", "90%", "-convolve",
                            "-1,-1,-1,-1,16,-1,-1,-1,-1", out + "/im.tif",
                        ]),
                ],
                megapixels: 25, goal: "faster than vips 0.63 s, Pillow-SIMD 0.52 s, ImageMagick; ≤ 100 MB"),
        ]
    }

    /// Makes the TIFF inputs (from the project's 12 MP test photo) and raw RGB copies for the Lux worker.
    static func prepare(_ photo: String, _ photoRaw: String, _ big: String) throws {
        let fm = FileManager.default
        let jpeg = try BenchData.photo
        func run(_ args: [String]) throws {
            let m = try ProcessRunner.run(args)
            guard m.exitStatus == 0 else { throw ValidationError("\(args.joined(separator: " ")) failed") }
        }
        if !fm.fileExists(atPath: photo) { try run(["vips", "copy", jpeg, photo]) }
        if !fm.fileExists(atPath: photoRaw) { try run(["vips", "rawsave", photo, photoRaw]) }
        if !fm.fileExists(atPath: big) {
            try run(["vips", "resize", photo, big, "1.24007936507936", "--vscale", "1.65343915343915"])
        }
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        let threads = ProcessInfo.processInfo.environment["LUX_THREADS"].flatMap(Int.init)
        switch job {
        case "fused": return try fused(threads: threads)
        case "vipsbench-tiff":
            guard arguments.count >= 2 else { throw ValidationError("usage: \(job) IN.tif OUT.tif") }
            return try vipsBenchTIFF(arguments[0], arguments[1], threads: threads)
        case "gauss", "resize", "rotate", "vipsbench":
            guard arguments.count >= 3, let w = Int(arguments[1]), let h = Int(arguments[2]) else {
                throw ValidationError("usage: \(job) RAW WIDTH HEIGHT")
            }
            let source = try loadRaw(arguments[0], width: w, height: h)
            return try pipeline(job, source, threads: threads, options: Array(arguments.dropFirst(3)))
        default: throw ValidationError("unknown render job \(job)")
        }
    }

    /// Reads a raw RGB file into an RGBA8 buffer, bands of rows in parallel (as an application would load it).
    static func loadRaw(_ path: String, width: Int, height: Int) throws -> PixelBuffer {
        let file = try RawRGBFile(path: path, width: width, height: height)
        var buffer = PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: .sRGB)
        buffer.withUnsafeMutablePlane { plane in
            Parallel.forEachBand(height, threads: Parallel.defaultThreadCount) { rows in
                file.read(x: 0, y: rows.lowerBound, width: width, height: rows.count) {
                    plane.row(rows.lowerBound + $0, as: UInt8.self)
                }
            }
        }
        return buffer
    }

    static func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }

    /// CPU time of the whole process (all threads).
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Five colour kernels over 12 MP RGBA half float, rendered into a half-float buffer.
    static func fused(threads: Int?) throws -> Double {
        let w = 4032
        let h = 3024
        var comps = [Float16](repeating: 0, count: 4 * w * h)
        for i in 0..<(w * h) {
            comps[4 * i] = Float16(Float(i % 4032) / 4032)
            comps[4 * i + 1] = Float16(Float(i / 4032) / 3024)
            comps[4 * i + 2] = 0.5
            comps[4 * i + 3] = 1
        }
        let source = Image(
            buffer: PixelBuffer(
                width: w, height: h, format: .rgbaHalf, components: comps, colorSpace: .extendedLinearSRGB))
        let image = source.exposureAdjust(ev: 0.5).sepiaTone(intensity: 0.6)
            .colorMatrix(
                red: [1.1, -0.05, -0.05, 0], green: [-0.05, 1.1, -0.05, 0], blue: [-0.05, -0.05, 1.1, 0],
                bias: [0.01, 0.01, 0.01, 0]
            )
            .exposureAdjust(ev: -0.25).sepiaTone(intensity: 0.3)
        let context = RenderContext(options: RenderOptions(cacheIntermediates: false, threadCount: threads))
        var out = PixelBuffer(width: w, height: h, format: .rgbaHalf, colorSpace: .extendedLinearSRGB)
        var times: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<11 {
            let t0 = monotonicSeconds()
            let c0 = cpuSeconds()
            let stats = try context.render(image, to: &out)
            times.append(monotonicSeconds() - t0)
            cpu.append(cpuSeconds() - c0)
            precondition(stats.programs == 1)
        }
        let t = median(times)
        print(
            String(
                format: "fused: %.2f ms, %.1f GB/s (16 bytes moved per pixel), %.2f ms CPU", t * 1000,
                Double(w * h * 16) / t / 1e9, median(cpu) * 1000))
        return t
    }

    /// The vips-bench pipeline TIFF to TIFF in bounded memory: strips are read as the render needs them and
    /// written as soon as they are rendered.
    static func vipsBenchTIFF(_ input: String, _ output: String, threads: Int?) throws -> Double {
        let t0 = monotonicSeconds()
        let c0 = cpuSeconds()
        let context = RenderContext(
            options: RenderOptions(workingColorSpace: .sRGB, cacheIntermediates: false, threadCount: threads))
        let src = try Image(contentsOf: URL(fileURLWithPath: input))
        let cropped = src.cropped(to: Rect(x: 100, y: 100, width: 4800, height: 4800)).translatedBy(x: -100, y: -100)
        let small = cropped.lanczosScaleTransform(scale: 0.9)
        let image = small.clampedToExtent().convolution3X3(
            weights: [-1, -1, -1, -1, 16, -1, -1, -1, -1].map { $0 / 8 }
        )
        .cropped(to: small.extent)
        try context.write(
            image, to: URL(fileURLWithPath: output), format: .tiff, bounds: image.extent.integral,
            options: EncodingOptions(alpha: .discard, synchronizesFile: false))
        let t = monotonicSeconds() - t0
        print("vipsbench-tiff: \(String(format: "%.3f s, %.3f s CPU", t, cpuSeconds() - c0))")
        return t
    }

    static func pipeline(_ job: String, _ buffer: PixelBuffer, threads: Int?, options: [String]) throws -> Double {
        // vips works on the sRGB values directly; `linear` in the options asks for Lux's default
        // (colour-managed, linear extended sRGB) instead.
        let managed = options.contains("linear")
        let context = RenderContext(
            options: RenderOptions(
                workingColorSpace: managed ? .extendedLinearSRGB : .sRGB, cacheIntermediates: false,
                threadCount: threads))
        let src = Image(buffer: buffer)
        let image: Image
        switch job {
        case "gauss":
            let sigma = options.first { $0.hasPrefix("sigma=") }.flatMap { Double($0.dropFirst(6)) } ?? 10
            image = src.clampedToExtent().gaussianBlur(radius: sigma).cropped(to: src.extent)
        case "resize":
            image = src.lanczosScaleTransform(scale: 1080.0 / 3024.0)
        case "rotate":
            image = src.transformed(by: AffineTransform(rotationAngle: 0.1)).cropped(to: src.extent)
        default:
            let cropped = src.cropped(to: Rect(x: 100, y: 100, width: 4800, height: 4800)).translatedBy(
                x: -100, y: -100)
            let small = cropped.lanczosScaleTransform(scale: 0.9)
            image = small.clampedToExtent().convolution3X3(
                weights: [-1, -1, -1, -1, 16, -1, -1, -1, -1].map { $0 / 8 }
            )
            .cropped(to: small.extent)
        }
        let t0 = monotonicSeconds()
        let c0 = cpuSeconds()
        var rows = 0
        let stats = try context.render(image, bounds: image.extent.integral, format: .rgba8, colorSpace: .sRGB) {
            strip in
            rows += strip.rows.count
        }
        let t = monotonicSeconds() - t0
        print("\(job): \(String(format: "%.3f s, %.3f s CPU", t, cpuSeconds() - c0)), \(rows) rows; \(stats)")
        return t
    }
}
