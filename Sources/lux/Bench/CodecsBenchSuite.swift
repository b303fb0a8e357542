import Foundation
import Lux

/// LuxCodecs against libjpeg-turbo's command-line tools, dcraw and LibRaw (issue 4's benchmarks).
enum CodecsBenchSuite: BenchSuite {
    static let name = "codecs"
    static let summary = "JPEG encode/decode vs cjpeg/djpeg, lossless-JPEG DNG decode vs dcraw_emu/dcraw, DNG write"

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let jpeg = try BenchData.photo
        let lj92 = try BenchData.canon550DMosaic12MP(compressed: true, inputs: context.inputs)
        let ppm = context.inputs.appendingPathComponent("iphone6s-12mp.ppm").path
        let tiff = context.inputs.appendingPathComponent("iphone6s-12mp.tiff").path
        if !FileManager.default.fileExists(atPath: ppm) || !FileManager.default.fileExists(atPath: tiff) {
            // The same 12 MP pixels as a PPM for cjpeg and an uncompressed 8-bit TIFF for Lux.
            let image = try ImageFile.read(url: URL(fileURLWithPath: jpeg))
            try ImageFile.write(image.pixels, to: URL(fileURLWithPath: tiff), options: EncodingOptions(alpha: .discard))
            let rgba = image.pixels.components(as: UInt8.self)
            var data = Data("P6\n\(image.pixels.width) \(image.pixels.height)\n255\n".utf8)
            data.reserveCapacity(data.count + rgba.count / 4 * 3)
            for i in stride(from: 0, to: rgba.count, by: 4) { data.append(contentsOf: rgba[i..<(i + 3)]) }
            try data.write(to: URL(fileURLWithPath: ppm))
        }
        let scratch = context.scratch.path
        let emuCopy = context.scratch.appendingPathComponent("lj92.dng").path
        try? FileManager.default.removeItem(atPath: emuCopy)
        try FileManager.default.copyItem(atPath: lj92, toPath: emuCopy)
        return [
            BenchCase(
                suite: name, name: "JPEG encode 12 MP q90 (4:2:0, optimised Huffman)",
                lux: ["bench-worker", name, "jpeg-encode", tiff, scratch + "/lux.jpg"],
                peers: [
                    .init(
                        name: "cjpeg -quality 90 -optimize",
                        command: ["cjpeg", "-quality", "90", "-optimize", "-outfile", scratch + "/cjpeg.jpg", ppm])
                ],
                megapixels: 12.19, goal: "within 10 % of cjpeg"),
            BenchCase(
                suite: name, name: "JPEG decode 12 MP", lux: ["bench-worker", name, "jpeg-decode", jpeg],
                peers: [.init(name: "djpeg -pnm", command: ["djpeg", "-pnm", "-outfile", "/dev/null", jpeg])],
                megapixels: 12.19, goal: "within 10 % of djpeg"),
            BenchCase(
                suite: name, name: "lossless-JPEG DNG decode 12 MP (256×256 tiles, predictor 1)",
                lux: ["bench-worker", name, "dng-decode", lj92],
                peers: [
                    .init(name: "unprocessed_raw (LibRaw decode)", command: ["unprocessed_raw", "-q", emuCopy]),
                    .init(
                        name: "dcraw_emu -disinterp -4",
                        command: ["dcraw_emu", "-disinterp", "-4", "-Z", "/dev/null", emuCopy]),
                    .init(name: "dcraw -D -4", command: ["dcraw", "-D", "-4", "-c", lj92]),
                ],
                megapixels: 12.19, goal: "≥ 2× faster than dcraw_emu"),
            BenchCase(
                suite: name, name: "DNG lossless write 12 MP Bayer (encode only)",
                lux: ["bench-worker", name, "dng-write", lj92],
                peers: [], megapixels: 12.19, goal: "< 150 ms"),
            BenchCase(
                suite: name, name: "memcpy of the same 24 MB (reference for DNG write)",
                lux: ["bench-worker", name, "memcpy", lj92],
                peers: [], megapixels: 12.19, goal: "reference"),
        ]
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        switch job {
        case "jpeg-encode":
            let image = try ImageFile.read(url: URL(fileURLWithPath: arguments[0]))
            let start = monotonicSeconds()
            try ImageFile.write(
                image.pixels, to: URL(fileURLWithPath: arguments[1]), format: .jpeg,
                options: EncodingOptions(quality: 0.9, synchronizesFile: false))
            return monotonicSeconds() - start
        case "jpeg-decode", "dng-decode":
            let start = monotonicSeconds()
            let image = try ImageFile.read(url: URL(fileURLWithPath: arguments[0]))
            let t = monotonicSeconds() - start
            precondition(image.pixels.width > 0)
            return t
        case "dng-write":
            let raw = try ImageFile.read(url: URL(fileURLWithPath: arguments[0])).rawImage!
            let options = EncodingOptions(
                dng: DNGEncodingOptions(compression: .losslessJPEG, generatesThumbnail: false))
            let start = monotonicSeconds()
            let bytes = try DNG.encode(raw, options: options)
            let t = monotonicSeconds() - start
            print("bytes=\(bytes.count)")
            return t
        case "memcpy":
            let raw = try ImageFile.read(url: URL(fileURLWithPath: arguments[0])).rawImage!
            let samples = raw.pixels.components(as: UInt16.self)
            var copy = [UInt16](repeating: 1, count: samples.count)
            let start = monotonicSeconds()
            copy.withUnsafeMutableBufferPointer { d in
                samples.withUnsafeBufferPointer { s in d.baseAddress!.update(from: s.baseAddress!, count: s.count) }
            }
            let t = monotonicSeconds() - start
            precondition(copy[copy.count / 2] == samples[samples.count / 2])
            return t
        default:
            throw CLIError("unknown codecs job \(job)")
        }
    }
}
