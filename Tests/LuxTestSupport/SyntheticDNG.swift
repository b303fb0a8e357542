import Foundation
import LuxBenchInputs
import LuxCodecs

/// The two 12-megapixel DNGs of the RAW tests, made from the committed Canon 550D DNG instead of committed (41 MB).
///
/// The 550D's active area (1734×1156, even offsets, so the RGGB phase is kept) is tiled and cropped to 4032×3024
/// and written with Lux's DNG writer, once uncompressed and once as lossless JPEG, into a temporary folder the
/// first time a test asks for either file; the folder is removed when the test process exits. The comparisons
/// with LibRaw, dcraw and exiftool stay independent: those tools read the files Lux wrote.
public enum SyntheticDNG: String, CaseIterable, Sendable {
    /// Uncompressed 16-bit samples in one strip (Lux lends them from the mapped file).
    case uncompressed = "synthetic12mp_canon550d_tiled_uncompressed.dng"
    /// Lossless JPEG (Compression 7), predictor 1, 256×256 tiles.
    case losslessJPEG = "synthetic12mp_canon550d_tiled_lj92.dng"

    /// The mosaic's width.
    public static let width = 4032
    /// The mosaic's height.
    public static let height = 3024

    /// The name tests use for the file, as if it were committed under `Tests/Data`.
    public var relativePath: String { "raw/derived/" + rawValue }

    /// The file's path, made on first use.
    public var path: String {
        get throws {
            try Self.folder.get() + "/" + rawValue
        }
    }

    /// The folder holding both files, or the error that stopped them being made (made once per process).
    private static let folder: Result<String, any Error> = Result {
        let folder = folderPath
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SyntheticDNG.folderPath) }
        let raw = try tiledCanon550D()
        for file in allCases {
            let compression: DNGEncodingOptions.Compression = file == .uncompressed ? .uncompressed : .losslessJPEG
            let options = EncodingOptions(dng: DNGEncodingOptions(compression: compression, generatesThumbnail: false))
            try ImageFile.write(raw, to: URL(fileURLWithPath: folder + "/" + file.rawValue), options: options)
        }
        return folder
    }

    /// Where ``folder`` is made (read again by the exit handler, which cannot capture it).
    private static var folderPath: String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "lux-synthetic-dng-\(ProcessInfo.processInfo.processIdentifier)"
        ).path
    }

    /// The 550D's active area repeated to 4032×3024.
    static func tiledCanon550D() throws -> RawImage {
        let source = TestData.root + "/raw/canon_eos550d_magiclantern_14bit.dng"
        guard let raw = try ImageFile.read(url: URL(fileURLWithPath: source)).rawImage else {
            throw ExternalTool.ToolError(message: "\(source) is not a raw file")
        }
        return try TiledRaw.tiling(raw, width: width, height: height)
    }
}
