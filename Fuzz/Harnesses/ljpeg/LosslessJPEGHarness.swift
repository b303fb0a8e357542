import FuzzSupport

@testable import LuxCodecs

/// The lossless-JPEG (SOF3) decoder on its own: header, Huffman tables, every predictor, restart intervals, point
/// transform.
///
/// The last byte's low bit selects the pre-DNG-1.1 category-16 handling.
func fuzzLosslessJPEG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data, count > 0 else { return 0 }
    let raw = UnsafeRawBufferPointer(start: data, count: count)
    guard let header = try? LosslessJPEGHeader(raw, what: "fuzz") else { return 0 }
    let rowSamples = header.width * header.components.count
    var checksum = 0
    _ = try? LosslessJPEGDecoder.decode(raw, header: header, legacyCategory16: raw[count - 1] & 1 == 1, what: "fuzz") {
        y, row in
        precondition(y >= 0 && y < header.height)
        for i in 0..<rowSamples { checksum &+= Int(row[i]) }
    }
    return checksum == -1 ? 1 : 0
}

@_cdecl("fuzz_ljpeg_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzLosslessJPEG) {
        var seeds: [(String, [UInt8])] = []
        for (nf, precision, width, height) in [
            (1, 16, 16, 8), (2, 14, 8, 8), (3, 8, 5, 3), (4, 12, 4, 4), (1, 2, 7, 2),
        ] {
            var samples = [UInt16](repeating: 0, count: width * height * nf)
            for i in samples.indices { samples[i] = UInt16((i * 37 + i / 3 * 11) % (1 << precision)) }
            let stream = samples.withUnsafeBufferPointer {
                LosslessJPEGEncoder.encode(
                    samples: $0.baseAddress!, rowStride: width * nf, width: width, height: height, components: nf,
                    precision: precision)
            }
            seeds.append(("sof3-\(nf)c-\(precision)bit-\(width)x\(height).ljpg", stream))
        }
        return seeds
    }
}
