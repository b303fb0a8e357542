import Foundation
import Lux

/// `lux bench raw`: RAW development (issue "RAW development", Benchmarks) — Lux's `lux develop` against
/// dcraw, LibRaw's dcraw_emu, darktable-cli and rawtherapee-cli, process to process on the same file.
enum RawBenchSuite: BenchSuite {
    static let name = "raw"
    static let summary =
        "12 MP DNG → sRGB JPEG vs dcraw/dcraw_emu/darktable/RawTherapee, half-size draft, 120 MP peak RSS"

    /// A 120-megapixel DNG made by tiling the 12 MP test raw (written once with LuxCodecs' DNG writer and cached).
    static func synthetic120MP(from source: String, to path: String) throws {
        if FileManager.default.fileExists(atPath: path) { return }
        let raw = try ImageFile.read(url: URL(fileURLWithPath: source)).rawImage!
        let src = raw.activePixels
        let w = 12672
        let h = 9504
        guard let pattern = raw.properties.cfaPattern else { throw CLIError("\(source) is not a Bayer raw") }
        var big = PixelBuffer(width: w, height: h, format: .bayer16(pattern))
        let tw = src.width & ~1
        let th = src.height & ~1
        big.withUnsafeMutablePlane { dst in
            src.withUnsafePlane { s in
                for y in 0..<h {
                    let sy = y % th
                    let d = dst.row(y, as: UInt16.self)
                    let r = s.row(sy, as: UInt16.self)
                    var x = 0
                    while x < w {
                        let n = min(tw, w - x)
                        (d + x).update(from: r, count: n)
                        x += n
                    }
                }
            }
        }
        var props = raw.properties
        props.width = w
        props.height = h
        props.activeArea = RawArea(top: 0, left: 0, bottom: h, right: w)
        props.defaultCrop = nil
        props.maskedAreas = []
        props.previews = []
        props.blackLevel.deltaH = nil
        props.blackLevel.deltaV = nil
        let options = EncodingOptions(dng: DNGEncodingOptions(compression: .losslessJPEG, generatesThumbnail: false))
        try ImageFile.write(RawImage(pixels: big, properties: props), to: URL(fileURLWithPath: path), options: options)
    }

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let dng = CodecsBenchSuite.testData("raw/derived/synthetic12mp_canon550d_tiled_uncompressed.dng")
        let out = context.scratch.path
        let big = context.inputs.appendingPathComponent("raw-synthetic-120mp.dng").path
        try synthetic120MP(from: dng, to: big)
        let dtConfig = context.scratch.appendingPathComponent("darktable").path
        let copy = context.scratch.appendingPathComponent("in.dng").path
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: dng, toPath: copy)
        // The same mosaic stored as one lossless-JPEG tile: decoded (serially) rather than read in place.
        let compressed = CodecsBenchSuite.testData("raw/derived/synthetic12mp_canon550d_tiled_lj92.dng")
        let compressedCopy = context.scratch.appendingPathComponent("in-lj92.dng").path
        try? FileManager.default.removeItem(atPath: compressedCopy)
        try FileManager.default.copyItem(atPath: compressed, toPath: compressedCopy)
        return [
            BenchCase(
                suite: name, name: "12 MP DNG → sRGB JPEG q90, default quality (Lux: RCD + NR + sharpening)",
                lux: ["develop", dng, "-o", out + "/lux.jpg", "--overwrite"],
                peers: [
                    .init(
                        name: "dcraw -w -q 3 (AHD, PPM)",
                        command: ["sh", "-c", "dcraw -c -w -q 3 \(dng) > \(out)/dcraw.ppm"]),
                    .init(name: "dcraw_emu -w (AHD, PPM)", command: ["dcraw_emu", "-w", "-Z", out + "/emu.ppm", copy]),
                    .init(
                        name: "darktable-cli (RCD, filmic, JPEG)",
                        command: [
                            "darktable-cli", dng, out + "/dt.jpg", "--core", "--configdir", dtConfig, "--library",
                            ":memory:", "--disable-opencl",
                        ]),
                    .init(
                        name: "rawtherapee-cli (AMaZE, JPEG)",
                        command: ["rawtherapee-cli", "-o", out + "/rt.jpg", "-d", "-Y", "-c", dng]),
                ],
                megapixels: 12.19, goal: "≥ 3× faster than dcraw_emu, ≥ 1.5× faster than darktable-cli"),
            BenchCase(
                suite: name, name: "12 MP lossless-JPEG DNG → sRGB JPEG q90, default quality",
                lux: ["develop", compressed, "-o", out + "/lux-lj92.jpg", "--overwrite"],
                peers: [
                    .init(
                        name: "dcraw_emu -w (AHD, PPM)",
                        command: ["dcraw_emu", "-w", "-Z", out + "/emu-lj92.ppm", compressedCopy])
                ],
                megapixels: 12.19, goal: "reference: the compressed file of the case above"),
            BenchCase(
                suite: name, name: "12 MP DNG → sRGB JPEG q90, draft half size",
                lux: ["develop", dng, "-o", out + "/lux-half.jpg", "--half", "--overwrite"],
                peers: [
                    .init(
                        name: "dcraw_emu -w -h (PPM)",
                        command: ["dcraw_emu", "-w", "-h", "-Z", out + "/emu-h.ppm", copy])
                ],
                megapixels: 12.19, goal: "faster than dcraw_emu -h"),
            BenchCase(
                suite: name, name: "120 MP DNG (lossless JPEG) → sRGB JPEG q90, peak RSS",
                lux: ["develop", big, "-o", out + "/lux-120.jpg", "--overwrite"],
                peers: [],
                megapixels: 120.4, goal: "peak RSS < 1 GB"),
        ]
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        throw CLIError("the raw suite runs `lux develop` directly; no worker job \(job)")
    }
}
