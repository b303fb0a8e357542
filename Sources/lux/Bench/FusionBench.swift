import ArgumentParser
import Foundation
import Lux

/// `lux bench fusion`: multi-frame fusion (issue "Multi-frame fusion", Benchmarks).
///
/// Inputs are made once from the project's 12 MP photograph and cached: Bayer14 bursts (the photo linearised,
/// mosaicked, shifted by hand-held jitter of up to ±4 photosites and given ISO-400-like Poisson–Gaussian noise) and
/// three 8-bit sRGB brackets (the photo linearised, scaled by 2^-2, 2^0, 2^+2, clipped — ANCHORS-ENGINE E5). Lux's
/// worker reads raw files, measures the fusion in memory (`inner`) and writes its result; enfuse runs file to file.
enum FusionBench: BenchSuite {
    static let name = "fusion"
    static let summary =
        "burst merge of 8 (full) and 4 (fast) 12 MP Bayer frames; exposure fusion of three 12 MP brackets vs enfuse and OpenCV; HDR merge of three 12 MP raw brackets"

    static let width = 4032
    static let height = 3024

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let inputs = context.inputs.path
        let out = context.scratch.path
        let photoRaw = try preparePhoto(inputs)
        let burst = try (0..<8).map { try prepareBurstFrame($0, photoRaw: photoRaw, inputs: inputs) }
        let brackets = try prepareBrackets(photoRaw: photoRaw, inputs: inputs)
        let rawBrackets = try prepareRawBrackets(inputs: inputs)
        let size = ["\(width)", "\(height)"]
        return [
            BenchCase(
                suite: name, name: "burst merge, full, 8 × 12 MP Bayer14",
                lux: ["bench-worker", name, "burst", "full"] + size + burst, peers: [], megapixels: 8 * 12.19,
                goal: "≤ 2 s on 2 cores; report peak RSS"),
            BenchCase(
                suite: name, name: "burst merge, fast, 4 × 12 MP Bayer14",
                lux: ["bench-worker", name, "burst", "fast"] + size + Array(burst.prefix(4)), peers: [],
                megapixels: 4 * 12.19, goal: "≤ 0.6 s"),
            BenchCase(
                suite: name, name: "exposure fusion, 3 × 12 MP 8-bit brackets (Lux raw → raw)",
                lux: ["bench-worker", name, "mertens"] + size + brackets.map(\.raw) + [out + "/fused.rgb"],
                peers: [
                    .init(
                        name: "enfuse (Mertens weights 1/1/1)",
                        command: [
                            "enfuse", "--exposure-weight=1", "--saturation-weight=1", "--contrast-weight=1",
                            "-o", out + "/enfuse.tif",
                        ] + brackets.map(\.tiff))
                ] + openCVPeer(brackets.map(\.tiff), out: out),
                megapixels: 3 * 12.19, goal: "≤ 1.5 s and ≤ 250 MB (enfuse 3.1 s, 448 MB)"),
            BenchCase(
                suite: name, name: "exposure fusion, 3 × 12 MP 8-bit brackets, TIFF → TIFF (lux fuse)",
                lux: ["fuse"] + brackets.map(\.tiff) + ["-o", out + "/lux-fused.tif", "--overwrite"],
                peers: [
                    .init(
                        name: "enfuse (Mertens weights 1/1/1)",
                        command: [
                            "enfuse", "--exposure-weight=1", "--saturation-weight=1", "--contrast-weight=1",
                            "--compression=none", "-o", out + "/enfuse-none.tif",
                        ] + brackets.map(\.tiff))
                ],
                megapixels: 3 * 12.19, goal: "≤ 1.5 s and ≤ 250 MB file to file"),
            BenchCase(
                suite: name, name: "HDR merge, 3 × 12 MP raw brackets, DNG → float TIFF radiance (lux hdr)",
                lux: ["hdr"] + rawBrackets + ["-o", out + "/lux-hdr.tif", "--overwrite"], peers: [],
                megapixels: 3 * 12.19, goal: "≤ 1.5 s and ≤ 250 MB (report)"),
        ]
    }

    /// OpenCV's MergeMertens through python3, when cv2 is importable.
    static func openCVPeer(_ files: [String], out: String) -> [BenchCase.Peer] {
        guard let m = try? ProcessRunner.run(["python3", "-c", "import cv2"]), m.exitStatus == 0 else { return [] }
        let script = """
            import cv2, sys
            ims = [cv2.imread(f) for f in sys.argv[1:4]]
            r = cv2.createMergeMertens(1, 1, 1).process(ims)
            cv2.imwrite(sys.argv[4], (r.clip(0, 1) * 255 + 0.5).astype('uint8'))
            """
        return [.init(name: "OpenCV MergeMertens", command: ["python3", "-c", script] + files + [out + "/cv.png"])]
    }

    static func run(_ args: [String]) throws {
        let m = try ProcessRunner.run(args)
        guard m.exitStatus == 0 else { throw ValidationError("\(args.joined(separator: " ")) failed") }
    }

    /// The 12 MP photo as raw 8-bit RGB.
    static func preparePhoto(_ inputs: String) throws -> String {
        let fm = FileManager.default
        let tif = inputs + "/fusion-photo.tif"
        let raw = inputs + "/fusion-photo.rgb"
        let jpeg = try BenchData.photo
        if !fm.fileExists(atPath: tif) { try run(["vips", "copy", jpeg, tif]) }
        if !fm.fileExists(atPath: raw) { try run(["vips", "rawsave", tif, raw]) }
        return raw
    }

    static func srgbToLinear() -> [Float] {
        (0..<256).map { i in
            let v = Double(i) / 255
            return Float(v <= 0.04045 ? v / 12.92 : Foundation.pow((v + 0.055) / 1.055, 2.4))
        }
    }

    /// Bayer14 frame `k` of the burst (RGGB, black 512, white 16383), cached as little-endian 16-bit samples.
    static func prepareBurstFrame(_ k: Int, photoRaw: String, inputs: String) throws -> String {
        let path = inputs + "/fusion-burst-\(k).raw16"
        if FileManager.default.fileExists(atPath: path) { return path }
        let photo = try Data(contentsOf: URL(fileURLWithPath: photoRaw))
        let lut = srgbToLinear()
        var state = UInt64(0x9E37_79B9_7F4A_7C15) &* UInt64(k + 1)
        func next() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
        let dx = k == 0 ? 0 : next() * 8 - 4
        let dy = k == 0 ? 0 : next() * 8 - 4
        let s = 1.3e-3
        let o = 7e-5
        var codes = [UInt16](repeating: 0, count: width * height)
        photo.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                for x in 0..<width {
                    let c = (y & 1) + (x & 1)  // RGGB: 0 = R, 1 = G, 2 = B
                    let fx = min(max(Double(x) + dx, 0), Double(width - 2))
                    let fy = min(max(Double(y) + dy, 0), Double(height - 2))
                    let ix = Int(fx)
                    let iy = Int(fy)
                    let ax = fx - Double(ix)
                    let ay = fy - Double(iy)
                    func v(_ xx: Int, _ yy: Int) -> Double { Double(lut[Int(p[3 * (yy * width + xx) + c])]) }
                    let lin =
                        ((1 - ax) * v(ix, iy) + ax * v(ix + 1, iy)) * (1 - ay)
                        + ((1 - ax) * v(ix, iy + 1) + ax * v(ix + 1, iy + 1)) * ay
                    let signal = 0.8 * lin
                    let gauss =
                        (-2 * Foundation.log(max(next(), 1e-300))).squareRoot() * Foundation.cos(2 * .pi * next())
                    let value = signal + (s * signal + o).squareRoot() * gauss
                    codes[y * width + x] = UInt16(min(max((512 + value * (16383 - 512)).rounded(), 0), 16383))
                }
            }
        }
        try codes.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        return path
    }

    /// The −2, 0, +2 EV brackets as raw RGB (for Lux) and TIFF (for the peers).
    static func prepareBrackets(photoRaw: String, inputs: String) throws -> [(raw: String, tiff: String)] {
        let lut = srgbToLinear()
        var out: [(String, String)] = []
        for (label, gain) in [("m2", 0.25), ("0", 1.0), ("p2", 4.0)] {
            let raw = inputs + "/fusion-bracket-\(label).rgb"
            let tif = inputs + "/fusion-bracket-\(label).tif"
            if !FileManager.default.fileExists(atPath: raw) {
                let encode: [UInt8] = (0..<256).map { i in
                    let l = min(Double(lut[i]) * gain, 1)
                    let e = l <= 0.003_130_8 ? 12.92 * l : 1.055 * Foundation.pow(l, 1 / 2.4) - 0.055
                    return UInt8((e * 255).rounded())
                }
                var data = try Data(contentsOf: URL(fileURLWithPath: photoRaw))
                data.withUnsafeMutableBytes { b in
                    let p = b.bindMemory(to: UInt8.self)
                    for i in 0..<p.count { p[i] = encode[Int(p[i])] }
                }
                try data.write(to: URL(fileURLWithPath: raw))
            }
            if !FileManager.default.fileExists(atPath: tif) {
                try run(["vips", "rawload", raw, tif + "[compression=none]", "\(width)", "\(height)", "3"])
            }
            out.append((raw, tif))
        }
        return out
    }

    /// The −2, 0, +2 EV raw brackets as uncompressed DNGs: the project's 12 MP test raw with its linear values
    /// scaled by 2^-2, 2^0, 2^+2 and clipped at the white level, tagged ExposureTime 1/400, 1/100 and 1/25 s at
    /// ISO 100 with the NoiseProfile that scaling gives.
    static func prepareRawBrackets(inputs: String) throws -> [String] {
        let source = try BenchData.canon550DMosaic12MP(compressed: false, inputs: URL(fileURLWithPath: inputs))
        var original: RawImage?
        var paths: [String] = []
        for (label, gain, time) in [("m2", 0.25, Int64(400)), ("0", 1.0, 100), ("p2", 4.0, 25)] {
            let path = inputs + "/fusion-hdr-\(label).dng"
            paths.append(path)
            if FileManager.default.fileExists(atPath: path) { continue }
            if original == nil { original = try ImageFile.read(url: URL(fileURLWithPath: source)).rawImage }
            guard var raw = original else { throw ValidationError("\(source) is not a raw file") }
            let black = raw.properties.blackLevel.maximum
            let white = raw.properties.whiteLevel.first ?? 65535
            let w = raw.pixels.width
            let h = raw.pixels.height
            var pixels = PixelBuffer(width: w, height: h, format: raw.pixels.format)
            pixels.withUnsafeMutablePlane { dst in
                raw.pixels.withUnsafePlane { src in
                    for y in 0..<h {
                        let s = src.row(y, as: UInt16.self)
                        let d = dst.row(y, as: UInt16.self)
                        for x in 0..<w {
                            d[x] = UInt16(min(max(black + (Double(s[x]) - black) * gain, 0), white).rounded())
                        }
                    }
                }
            }
            raw.pixels = pixels
            raw.properties.exif.exposureTime = Rational(1, time)
            raw.properties.exif.isoSpeed = 100
            raw.properties.noiseProfile = LuxCodecs.NoiseProfile(planes: [
                .init(scale: 3e-4 * gain, offset: 4e-6 * gain * gain)
            ])
            raw.properties.previews = []
            let options = EncodingOptions(
                dng: DNGEncodingOptions(compression: .uncompressed, generatesThumbnail: false))
            try ImageFile.write(raw, to: URL(fileURLWithPath: path), options: options)
        }
        return paths
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        let threads = ProcessInfo.processInfo.environment["LUX_THREADS"].flatMap(Int.init)
        switch job {
        case "burst":
            guard arguments.count >= 4, let w = Int(arguments[1]), let h = Int(arguments[2]) else {
                throw ValidationError("usage: burst fast|full WIDTH HEIGHT FILE…")
            }
            let frames = try arguments.dropFirst(3).map { path -> PixelBuffer in
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                guard data.count == 2 * w * h else { throw ValidationError("\(path) is not \(w)×\(h) 16-bit") }
                var buffer = PixelBuffer(width: w, height: h, format: .bayer14(.rggb))
                buffer.withUnsafeMutablePlane { plane in
                    data.withUnsafeBytes { raw in
                        for y in 0..<h {
                            plane.row(y).copyMemory(from: raw.baseAddress! + 2 * w * y, byteCount: 2 * w)
                        }
                    }
                }
                return buffer
            }
            var settings: BurstMerge.Settings = arguments[0] == "fast" ? .balanced : .quality
            settings.threads = threads
            let model = RawNoiseModel(
                blackLevel: 512, whiteLevel: 16383, noise: NoiseProfile(scale: 1.3e-3, offset: 7e-5))
            let start = monotonicSeconds()
            let result = try BurstMerge(settings: settings).merge(frames, rawModel: model)
            let seconds = monotonicSeconds() - start
            print("rejected=\(result.rejectedFraction) effective=\(result.effectiveFrameCount)")
            return seconds
        case "mertens": return try mertens(arguments, threads: threads)
        default: throw ValidationError("unknown fusion job \(job)")
        }
    }
}

extension FusionBench {
    /// Reads 8-bit RGB raw files into RGBA8 buffers.
    static func loadRGB(_ paths: [String], width w: Int, height h: Int) throws -> [PixelBuffer] {
        try paths.map { path in
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count == 3 * w * h else { throw ValidationError("\(path) is not \(w)×\(h) RGB") }
            var buffer = PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: .sRGB)
            buffer.withUnsafeMutablePlane { plane in
                data.withUnsafeBytes { raw in
                    let s = raw.bindMemory(to: UInt8.self)
                    for y in 0..<h {
                        let d = plane.row(y, as: UInt8.self)
                        let o = 3 * w * y
                        for x in 0..<w {
                            d[4 * x] = s[o + 3 * x]
                            d[4 * x + 1] = s[o + 3 * x + 1]
                            d[4 * x + 2] = s[o + 3 * x + 2]
                            d[4 * x + 3] = 255
                        }
                    }
                }
            }
            return buffer
        }
    }

    /// Writes the RGB of an RGBA8 buffer as raw bytes.
    static func saveRGB(_ buffer: PixelBuffer, to path: String) throws {
        var data = Data(count: 3 * buffer.width * buffer.height)
        buffer.withUnsafePlane { plane in
            data.withUnsafeMutableBytes { raw in
                let d = raw.bindMemory(to: UInt8.self)
                for y in 0..<buffer.height {
                    let s = plane.row(y, as: UInt8.self)
                    let o = 3 * buffer.width * y
                    for x in 0..<buffer.width {
                        d[o + 3 * x] = s[4 * x]
                        d[o + 3 * x + 1] = s[4 * x + 1]
                        d[o + 3 * x + 2] = s[4 * x + 2]
                    }
                }
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    static func mertens(_ arguments: [String], threads: Int?) throws -> Double {
        guard arguments.count == 6, let w = Int(arguments[0]), let h = Int(arguments[1]) else {
            throw ValidationError("usage: mertens WIDTH HEIGHT M2 0 P2 OUT")
        }
        let frames = try loadRGB(Array(arguments[2..<5]), width: w, height: h)
        var settings = ExposureFusion.Settings()
        settings.threads = threads
        let start = monotonicSeconds()
        let fused = try ExposureFusion(settings: settings).fuse(frames)
        let seconds = monotonicSeconds() - start
        try saveRGB(fused, to: arguments[5])
        return seconds
    }
}
