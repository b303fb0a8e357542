import Foundation
import Lux
import LuxBenchInputs

/// The files the benchmarks start from, all from the package: the committed test files (`Tests/Data`, found from
/// the current directory, so `lux bench` runs from the package root) and DNGs made from them into the inputs folder.
enum BenchData {
    /// The 12 MP iPhone 6s JPEG of the committed Live Photo pair.
    static var photo: String {
        get throws { try committed("livephoto/iphone6s_livephoto_train.jpg") }
    }

    /// A committed test file, by its path under `Tests/Data`.
    static func committed(_ relative: String) throws -> String {
        let path = FileManager.default.currentDirectoryPath + "/Tests/Data/" + relative
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError("\(path) does not exist: run lux bench from the package root")
        }
        return path
    }

    /// The path of a 4032×3024 mosaic made from the Canon 550D DNG in `inputs` on first use.
    ///
    /// The 550D's active area is repeated, with its colour description and levels, and written uncompressed or as
    /// lossless JPEG (predictor 1, 256×256 tiles). The RAW tests make the same pair (`LuxTestSupport.SyntheticDNG`).
    static func canon550DMosaic12MP(compressed: Bool, inputs: URL) throws -> String {
        let name =
            compressed ? "synthetic12mp_canon550d_tiled_lj92.dng" : "synthetic12mp_canon550d_tiled_uncompressed.dng"
        let path = inputs.appendingPathComponent(name).path
        try tiledCanon550D(width: 4032, height: 3024, compression: compressed ? .losslessJPEG : .uncompressed, to: path)
        return path
    }

    /// The Canon 550D DNG's active area repeated to `width`×`height` (see `TiledRaw`) and written without a
    /// thumbnail to `path`, unless that file exists.
    static func tiledCanon550D(
        width: Int, height: Int, compression: DNGEncodingOptions.Compression, to path: String
    ) throws {
        if FileManager.default.fileExists(atPath: path) { return }
        let source = try committed("raw/canon_eos550d_magiclantern_14bit.dng")
        guard let raw = try ImageFile.read(url: URL(fileURLWithPath: source)).rawImage else {
            throw CLIError("\(source) is not a raw file")
        }
        let mosaic = try TiledRaw.tiling(raw, width: width, height: height)
        let options = EncodingOptions(dng: DNGEncodingOptions(compression: compression, generatesThumbnail: false))
        // Written under another name and moved, so an interrupted run leaves no partial input behind.
        let partial = path + ".partial"
        try ImageFile.write(mosaic, to: URL(fileURLWithPath: partial), options: options)
        try FileManager.default.moveItem(atPath: partial, toPath: path)
    }
}
