public import CFuzzDriver
public import LuxCodecs

#if canImport(Glibc)
    import Glibc
#endif

/// What every harness shares: the decoding limits it fuzzes under and the seed writer.
public enum Fuzz {
    /// The limits harnesses decode with: the defaults' structure with a smaller budget, so a header that passes the
    /// checks still decodes within libFuzzer's 1 s timeout and 2 GB RSS limit.
    ///
    /// A decode that allocates far past these (libFuzzer's `-malloc_limit_mb`) is a bug in the limit checks.
    public static let options = DecodingOptions(
        limits: DecodingLimits(maxPixelCount: 4_000_000, maxByteCount: 64 << 20, maxChunkCount: 1 << 16),
        threads: 1)

    /// The body of a harness's entry point: writes the seeds when asked to (see
    /// ``writeSeedsIfRequested(_:)``), otherwise runs libFuzzer with the command-line flags on `input`.
    public static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, input: lux_fuzz_callback,
        seeds: () throws -> [(String, [UInt8])]
    ) -> CInt {
        writeSeedsIfRequested(seeds)
        return lux_fuzz_run(argc, argv, input)
    }

    /// The fuzz input as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let data, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// When `LUX_FUZZ_WRITE_SEEDS` names a folder, writes `seeds()` there (one file per entry) and exits;
    /// `Fuzz/run.sh` calls each harness this way to seed the fuzzer with files Lux itself writes.
    public static func writeSeedsIfRequested(_ seeds: () throws -> [(String, [UInt8])]) {
        guard let folder = getenv("LUX_FUZZ_WRITE_SEEDS").map({ String(cString: $0) }), !folder.isEmpty else { return }
        do {
            for (name, bytes) in try seeds() {
                let path = folder + "/" + name
                guard let file = fopen(path, "wb") else {
                    print("cannot write \(path)")
                    exit(1)
                }
                _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                fclose(file)
            }
            exit(0)
        } catch {
            print("seed generation failed: \(error)")
            exit(1)
        }
    }
}
