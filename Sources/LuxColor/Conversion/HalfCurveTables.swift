internal import CLuxKernels
import Synchronization

/// Lookup tables over all 65 536 half-float bit patterns for a converter's curves, built on first use.
///
/// Half-float rows have only 2¹⁶ possible channel values, so decoding is one table load per value
/// instead of a log/exp pair. For destinations that clip to 0…1, encoding is also a table: the linear
/// value is scaled by 2⁸ (so values down to 2.4·10⁻⁷ are still normal half floats and keep 11 bits),
/// rounded to half and looked up. Tables use the same ``CurveStage`` arithmetic as the float rows;
/// 384 KiB per converter, about 0.3 ms to build.
final class HalfCurveTables: Sendable {
    struct Tables: Sendable {
        /// Half bits → decoded linear `Float` (clamping/mirroring as the source requires).
        var decode: [Float]
        /// Half bits of (linear · ``encodeScale``) → half bits of the encoded value; empty when the
        /// destination is encoded in float instead.
        var encode: [UInt16]
    }

    /// The factor applied to linear values before they index the encode table.
    static let encodeScale: Float = 256

    private let storage = Mutex<Tables?>(nil)

    /// The tables, built by `make` the first time.
    func tables(_ make: () -> Tables) -> Tables {
        storage.withLock { cached in
            if let cached { return cached }
            let built = make()
            cached = built
            return built
        }
    }

    /// Builds the tables: `decode` applied to every half value (unless `skipDecode`), and, when
    /// `tabulateEncode`, `encode` applied to every half value divided by ``encodeScale``.
    static func make(decode: CurveStage, skipDecode: Bool, encode: CurveStage, tabulateEncode: Bool) -> Tables {
        var bits = [UInt16](repeating: 0, count: 65536)
        for i in 0..<65536 { bits[i] = UInt16(i) }
        var values = [Float](repeating: 0, count: 65536)
        bits.withUnsafeBufferPointer { b in
            values.withUnsafeMutableBufferPointer { v in lux_half_to_float(b.baseAddress!, v.baseAddress!, 65536) }
        }
        var decoded = values
        if !skipDecode { decoded.withUnsafeMutableBufferPointer { decode.apply($0.baseAddress!, 65536) } }
        guard tabulateEncode else { return Tables(decode: decoded, encode: []) }
        var encoded = values.map { $0 / encodeScale }
        encoded.withUnsafeMutableBufferPointer { encode.apply($0.baseAddress!, 65536) }
        var encodedBits = [UInt16](repeating: 0, count: 65536)
        encoded.withUnsafeBufferPointer { e in
            encodedBits.withUnsafeMutableBufferPointer { lux_float_to_half(e.baseAddress!, $0.baseAddress!, 65536) }
        }
        return Tables(decode: decoded, encode: encodedBits)
    }
}
