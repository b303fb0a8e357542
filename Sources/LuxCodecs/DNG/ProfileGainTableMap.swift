/// Spatially varying gain tables (DNG 1.6 ProfileGainTableMap, tag 52525): the local tone mapping iPhone ProRAW
/// files carry.
///
/// A `pointsV × pointsH` grid of tables, each `pointsN` gains long, is laid over the image in relative coordinates
/// (origin and spacing, 1 = the image's height or width; pixel centres at half-pixel offsets). At every pixel the
/// four surrounding tables are interpolated bilinearly (edge tables replicated outside the grid), and the table is
/// looked up, interpolating linearly, at `clamp((R, G, B, min, max) · inputWeights, 0, 1) · pointsN`; the pixel's
/// RGB is multiplied by that gain. DNG applies it in linear RIMM RGB after BaselineExposure and before the
/// ProfileToneCurve.
public struct ProfileGainTableMap: Hashable, Sendable, Codable {
    /// Tables down the image (≥ 1).
    public var pointsV: Int
    /// Tables across the image (≥ 1).
    public var pointsH: Int
    /// Vertical spacing of the tables, relative to the image height.
    public var spacingV: Double
    /// Horizontal spacing of the tables, relative to the image width.
    public var spacingH: Double
    /// The first table's vertical position, relative to the image height.
    public var originV: Double
    /// The first table's horizontal position, relative to the image width.
    public var originH: Double
    /// Gains per table (≥ 1).
    public var pointsN: Int
    /// The weights of R, G, B, min(R, G, B) and max(R, G, B) that make the table input.
    public var inputWeights: [Float]
    /// `pointsV × pointsH × pointsN` gains, table after table, row by row.
    public var gains: [Float]

    /// Creates a map.
    public init(
        pointsV: Int, pointsH: Int, spacingV: Double, spacingH: Double, originV: Double, originH: Double, pointsN: Int,
        inputWeights: [Float], gains: [Float]
    ) {
        self.pointsV = pointsV
        self.pointsH = pointsH
        self.spacingV = spacingV
        self.spacingH = spacingH
        self.originV = originV
        self.originH = originH
        self.pointsN = pointsN
        self.inputWeights = inputWeights
        self.gains = gains
    }

    /// Parses the tag's bytes (in the file's byte order).
    ///
    /// - Throws: ``CodecError/truncated(what:offset:)`` when the data is shorter than its header says,
    ///   ``CodecError/malformed(what:offset:reason:)`` for an empty grid or table, more than 4096 entries per side, a
    ///   value that is not finite or a negative gain.
    init(bytes: [UInt8], bigEndian: Bool) throws(CodecError) {
        let what = "ProfileGainTableMap"
        let header = try withBytes(of: bytes) { raw throws(CodecError) in
            let r = ByteReader(raw, bigEndian: bigEndian)
            func double(_ o: Int) throws(CodecError) -> Double { Double(bitPattern: try r.u64(o, what)) }
            return (
                Int(try r.u32(0, what)), Int(try r.u32(4, what)), try double(8), try double(16), try double(24),
                try double(32), Int(try r.u32(40, what)),
                try (0..<5).map { i throws(CodecError) in Float(bitPattern: try r.u32(44 + 4 * i, what)) }
            )
        }
        let (v, h, sv, sh, ov, oh, n, weights) = header
        guard (1...4096).contains(v), (1...4096).contains(h), (1...4096).contains(n),
            [sv, sh, ov, oh].allSatisfy(\.isFinite), sv > 0, sh > 0, weights.allSatisfy(\.isFinite)
        else {
            throw .malformed(
                what: what, offset: 0,
                reason: "a \(v)×\(h) grid of \(n)-point tables, spacing \(sv)×\(sh), origin \(ov), \(oh)")
        }
        let count = v * h * n
        let gains = try withBytes(of: bytes) { raw throws(CodecError) -> [Float] in
            let r = ByteReader(raw, bigEndian: bigEndian)
            try r.check(64, 4 * count, "\(what) gains")
            return (0..<count).map { Float(bitPattern: r.u32Unchecked(64 + 4 * $0)) }
        }
        guard gains.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw .malformed(what: what, offset: 64, reason: "gains must be finite and non-negative")
        }
        self.init(
            pointsV: v, pointsH: h, spacingV: sv, spacingH: sh, originV: ov, originH: oh, pointsN: n,
            inputWeights: weights, gains: gains)
    }

    /// The gain at relative position `(u, v)` (0…1 across the image) for table input `t` (0…1).
    public func gain(u: Double, v: Double, input t: Float) -> Float {
        /// Grid index and fraction along one axis, edge tables replicated outside the grid.
        func cell(_ p: Double, _ origin: Double, _ spacing: Double, _ count: Int) -> (Int, Int, Float) {
            let f = min(max((p - origin) / spacing, 0), Double(count - 1))
            let i = Int(f)
            return (i, min(i + 1, count - 1), Float(f - Double(i)))
        }
        let (r0, r1, fv) = cell(v, originV, spacingV, pointsV)
        let (c0, c1, fh) = cell(u, originH, spacingH, pointsH)
        let x = min(max(t, 0), 1) * Float(pointsN)
        let k0 = min(Int(x), pointsN - 1)
        let k1 = min(k0 + 1, pointsN - 1)
        let fk = min(x - Float(k0), 1)
        func table(_ r: Int, _ c: Int) -> Float {
            let base = (r * pointsH + c) * pointsN
            return gains[base + k0] * (1 - fk) + gains[base + k1] * fk
        }
        let top = table(r0, c0) * (1 - fh) + table(r0, c1) * fh
        let bottom = table(r1, c0) * (1 - fh) + table(r1, c1) * fh
        return top * (1 - fv) + bottom * fv
    }
}
