import Foundation
import Lux

/// `lux bench raw`: RAW development (issue "RAW development", Benchmarks) — Lux's `lux develop` against
/// dcraw, LibRaw's dcraw_emu, darktable-cli and rawtherapee-cli, process to process on the same file.
enum RawBenchSuite: BenchSuite {
    static let name = "raw"
    static let summary =
        "12 MP DNG → sRGB JPEG vs dcraw/dcraw_emu/darktable/RawTherapee, half-size draft, 120 MP peak RSS"

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let dng = try BenchData.canon550DMosaic12MP(compressed: false, inputs: context.inputs)
        let out = context.scratch.path
        let big = context.inputs.appendingPathComponent("raw-synthetic-120mp.dng").path
        try BenchData.tiledCanon550D(width: 12672, height: 9504, compression: .losslessJPEG, to: big)
        let dtConfig = context.scratch.appendingPathComponent("darktable").path
        let copy = context.scratch.appendingPathComponent("in.dng").path
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: dng, toPath: copy)
        // The same mosaic stored as lossless-JPEG tiles: decoded rather than read in place.
        let compressed = try BenchData.canon550DMosaic12MP(compressed: true, inputs: context.inputs)
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
                suite: name, name: "12 MP DNG decoded by LibRaw (--decoder libraw) → sRGB JPEG q90, default quality",
                lux: ["develop", dng, "-o", out + "/lux-libraw.jpg", "--decoder", "libraw", "--overwrite"],
                peers: [
                    .init(
                        name: "dcraw_emu -w (AHD, PPM)", command: ["dcraw_emu", "-w", "-Z", out + "/emu-lr.ppm", copy])
                ],
                megapixels: 12.19, goal: "≤ 0.5× dcraw_emu -w's time (camera raws other than DNG take this path)"),
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
