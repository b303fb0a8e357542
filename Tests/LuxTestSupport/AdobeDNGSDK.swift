public import Foundation
public import Testing

/// The Adobe DNG SDK, the reference DNG reader, through the `dngpy` wheel (SDK 1.7.1 built with its validation
/// messages) as an oracle.
public enum AdobeDNGSDK {
    /// What the SDK read from a DNG.
    public struct Reading: Sendable {
        /// The SDK's warnings and errors (`*** Warning: … ***` lines it prints while reading).
        public var complaints: [String]
        /// The stored raw image's size (the whole mosaic).
        public var rawWidth: Int
        public var rawHeight: Int
        /// The size the SDK renders: the default crop.
        public var width: Int
        public var height: Int
        /// The CFA pattern as the SDK names it (`RGGB`, …).
        public var bayerPattern: String
    }

    /// The reading script: it loads the SDK's library first so its messages reach standard error, writes the
    /// stage-1 raw values to the second argument when one is given, and prints the sizes and the pattern.
    static let script = """
        import sys, ctypes, glob, site
        so = glob.glob(site.getsitepackages()[0] + '/lib/libdng.so.1*')[0]
        ctypes.CDLL(so)
        import dngpy
        d = dngpy.Dng(sys.argv[1])
        if len(sys.argv) > 2:
            d.raw_pixels.astype('<u2').tofile(sys.argv[2])
        m = d.metadata
        print(m.raw_width, m.raw_height, m.width, m.height, d.get_bayer_pattern())
        """

    /// Whether `dngpy` is installed (`pip install dngpy`; `.ci/run` installs it).
    public static let isAvailable: Bool = {
        guard ExternalTool.isAvailable("python3") else { return false }
        return (try? ExternalTool.capture("python3", ["-c", "import dngpy"]).status) == 0
    }()

    /// Reads `url` with the SDK, writing its stage-1 raw values (16-bit little-endian) to `rawValues` when given.
    public static func read(_ url: URL, rawValues: URL? = nil) throws -> Reading {
        let run = try ExternalTool.capture("python3", ["-c", script, url.path] + (rawValues.map { [$0.path] } ?? []))
            .succeeded()
        let fields = run.text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count == 5, let rw = Int(fields[0]), let rh = Int(fields[1]), let w = Int(fields[2]),
            let h = Int(fields[3])
        else { throw ExternalTool.ToolError(message: "unexpected dngpy output: \(run.text)") }
        let complaints = run.errorText.split(separator: "\n").map(String.init).filter {
            $0.contains("*** Warning") || $0.contains("*** Error")
        }
        return Reading(
            complaints: complaints, rawWidth: rw, rawHeight: rh, width: w, height: h, bayerPattern: fields[4])
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the Adobe DNG SDK's `dngpy` wheel is installed; otherwise skips it, saying so.
    public static var needsDNGSDK: Self {
        .enabled(if: AdobeDNGSDK.isAvailable, "needs the dngpy Python package (pip install dngpy)")
    }
}
