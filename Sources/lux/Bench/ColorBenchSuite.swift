import Foundation
import Lux

/// sRGB → Display P3 conversion of a 12 MP photo against lcms2's `tificc` (issue 2's benchmark).
///
/// Lux runs file to file like `tificc` (read TIFF, convert, write TIFF), and its worker also reports the
/// in-memory conversion time alone as throughput. The profiles given to `tificc` are the ones Lux writes
/// (validated against lcms2 in LuxColorTests).
enum ColorBenchSuite: BenchSuite {
    static let name = "color"
    static let summary = "sRGB → Display P3, 12 MP, 8-bit and half float, 1 and 2 threads, vs lcms2 tificc"

    static func cases(in context: BenchContext) throws -> [BenchCase] {
        let input8 = context.inputs.appendingPathComponent("iphone6s-12mp-rgb8.tiff").path
        let inputHalf = context.inputs.appendingPathComponent("iphone6s-12mp-rgbhalf.tiff").path
        let srgbICC = context.inputs.appendingPathComponent("lux-srgb.icc").path
        let p3ICC = context.inputs.appendingPathComponent("lux-display-p3.icc").path
        let fm = FileManager.default
        if ![input8, inputHalf, srgbICC, p3ICC].allSatisfy(fm.fileExists(atPath:)) {
            let jpeg = try BenchData.photo
            let image = try ImageFile.read(url: URL(fileURLWithPath: jpeg))
            try ImageFile.write(
                image.pixels, to: URL(fileURLWithPath: input8),
                options: EncodingOptions(embedsColorProfile: false, alpha: .discard))
            try ImageFile.write(
                image.pixels.converted(to: .rgbaHalf, threads: 2), to: URL(fileURLWithPath: inputHalf),
                options: EncodingOptions(embedsColorProfile: false, sampleType: .float16, alpha: .discard))
            try Data(ColorSpace.sRGB.iccProfile().data).write(to: URL(fileURLWithPath: srgbICC))
            try Data(ColorSpace.displayP3.iccProfile().data).write(to: URL(fileURLWithPath: p3ICC))
        }
        let out = context.scratch.path
        func tificc(_ input: String) -> BenchCase.Peer {
            .init(
                name: "tificc (lcms2, 1 thread)",
                command: ["tificc", "-t1", "-i", srgbICC, "-o", p3ICC, input, out + "/tificc.tiff"])
        }
        var cases: [BenchCase] = []
        for (label, input) in [("8-bit", input8), ("half float", inputHalf)] {
            for threads in [1, 2] {
                cases.append(
                    BenchCase(
                        suite: name,
                        name: "sRGB → Display P3, 12 MP, \(label), \(threads) thread\(threads > 1 ? "s" : "")",
                        lux: ["bench-worker", name, "convert", input, out + "/lux.tiff", String(threads)],
                        peers: [tificc(input)], megapixels: 12.19,
                        goal: "≥ 2× tificc throughput"))
            }
        }
        return cases
    }

    static func work(job: String, arguments: [String]) throws -> Double {
        guard job == "convert", arguments.count == 3, let threads = Int(arguments[2]) else {
            throw CLIError("usage: bench-worker color convert IN OUT THREADS")
        }
        var image = try ImageFile.read(url: URL(fileURLWithPath: arguments[0]))
        image.pixels.colorSpace = .sRGB
        let start = monotonicSeconds()
        let p3 = try image.pixels.matchingColors(to: .displayP3, threads: threads)
        let inner = monotonicSeconds() - start
        try ImageFile.write(
            p3, to: URL(fileURLWithPath: arguments[1]),
            options: EncodingOptions(embedsColorProfile: true, alpha: .discard, synchronizesFile: false))
        return inner
    }
}
