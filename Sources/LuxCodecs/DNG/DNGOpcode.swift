/// One entry of a DNG opcode list (OpcodeList1/2/3): a processing step the file asks the renderer to apply (lens
/// corrections, shading gain maps, bad-pixel fixes …).
///
/// DNG 1.7 chapter 7.
///
/// WarpRectilinear, FixVignetteRadial and GainMap are parsed into typed values; every other opcode is
/// kept with its parameter bytes so it survives a round trip.
public struct DNGOpcode: Hashable, Sendable, Codable {
    /// The DNG version the opcode was introduced in (0x01030000 for 1.3, for example).
    public var dngVersion: UInt32
    /// Whether a reader that does not know the opcode may skip it (flag bit 0).
    public var isOptional: Bool
    /// Whether the opcode may be skipped for preview-quality rendering (flag bit 1).
    public var canSkipForPreview: Bool
    /// What the opcode does.
    public var operation: Operation

    /// The operations LuxCodecs understands.
    public enum Operation: Hashable, Sendable, Codable {
        /// ID 1: radial and tangential distortion correction.
        case warpRectilinear(WarpRectilinear)
        /// ID 3: radial vignetting correction.
        case fixVignetteRadial(FixVignetteRadial)
        /// ID 9: a gain map (lens shading).
        case gainMap(GainMap)
        /// Any other opcode, with its big-endian parameter bytes.
        case other(id: UInt32, parameters: [UInt8])
    }

    /// Creates an opcode.
    public init(
        _ operation: Operation, dngVersion: UInt32 = 0x0103_0000, isOptional: Bool = true,
        canSkipForPreview: Bool = false
    ) {
        self.operation = operation
        self.dngVersion = dngVersion
        self.isOptional = isOptional
        self.canSkipForPreview = canSkipForPreview
    }

    /// The opcode ID.
    public var id: UInt32 {
        switch operation {
        case .warpRectilinear: 1
        case .fixVignetteRadial: 3
        case .gainMap: 9
        case .other(let id, _): id
        }
    }

    /// The opcode's name from the DNG specification.
    public var name: String {
        let names: [UInt32: String] = [
            1: "WarpRectilinear", 2: "WarpFisheye", 3: "FixVignetteRadial", 4: "FixBadPixelsConstant",
            5: "FixBadPixelsList", 6: "TrimBounds", 7: "MapTable", 8: "MapPolynomial", 9: "GainMap",
            10: "DeltaPerRow", 11: "DeltaPerColumn", 12: "ScalePerRow", 13: "ScalePerColumn", 14: "WarpRectilinear2",
        ]
        return names[id] ?? "Opcode\(id)"
    }
}

/// Parameters of WarpRectilinear (opcode 1).
public struct WarpRectilinear: Hashable, Sendable, Codable {
    /// Coefficients for one plane (or for all planes when there is one set).
    public struct Coefficients: Hashable, Sendable, Codable {
        /// Radial coefficients kr0…kr3 (identity: 1, 0, 0, 0).
        public var radial: [Double]
        /// Tangential coefficients kt0, kt1.
        public var tangential: [Double]

        /// Creates coefficients.
        public init(radial: [Double], tangential: [Double]) {
            self.radial = radial
            self.tangential = tangential
        }
    }

    /// One set per plane, or one shared set.
    public var planes: [Coefficients]
    /// The optical centre's horizontal position, normalised (0.5 = image centre).
    public var centerX: Double
    /// The optical centre's vertical position, normalised (0.5 = image centre).
    public var centerY: Double

    /// Creates parameters.
    public init(planes: [Coefficients], centerX: Double = 0.5, centerY: Double = 0.5) {
        self.planes = planes
        self.centerX = centerX
        self.centerY = centerY
    }
}

/// Parameters of FixVignetteRadial (opcode 3): gain g = 1 + k0 r² + k1 r⁴ + k2 r⁶ + k3 r⁸ + k4 r¹⁰.
public struct FixVignetteRadial: Hashable, Sendable, Codable {
    /// k0…k4.
    public var coefficients: [Double]
    /// The optical centre's horizontal position, normalised.
    public var centerX: Double
    /// The optical centre's vertical position, normalised.
    public var centerY: Double

    /// Creates parameters.
    public init(coefficients: [Double], centerX: Double = 0.5, centerY: Double = 0.5) {
        self.coefficients = coefficients
        self.centerX = centerX
        self.centerY = centerY
    }
}

/// The image region an opcode applies to (the area spec shared by opcodes 7–13).
public struct OpcodeArea: Hashable, Sendable, Codable {
    /// First row.
    public var top: UInt32
    /// First column.
    public var left: UInt32
    /// Row after the last.
    public var bottom: UInt32
    /// Column after the last.
    public var right: UInt32
    /// First plane.
    public var plane: UInt32
    /// Number of planes.
    public var planes: UInt32
    /// Row step (2 selects one Bayer row phase).
    public var rowPitch: UInt32
    /// Column step.
    public var columnPitch: UInt32

    /// Creates an area.
    public init(
        top: UInt32, left: UInt32, bottom: UInt32, right: UInt32, plane: UInt32 = 0, planes: UInt32 = 1,
        rowPitch: UInt32 = 1, columnPitch: UInt32 = 1
    ) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
        self.plane = plane
        self.planes = planes
        self.rowPitch = rowPitch
        self.columnPitch = columnPitch
    }
}

/// Parameters of GainMap (opcode 9): a grid of gains, bilinearly interpolated, applied to an area.
public struct GainMap: Hashable, Sendable, Codable {
    /// The pixels the map applies to.
    public var area: OpcodeArea
    /// Grid points vertically.
    public var pointsV: UInt32
    /// Grid points horizontally.
    public var pointsH: UInt32
    /// Grid spacing, as a fraction of the image height.
    public var spacingV: Double
    /// Grid spacing, as a fraction of the image width.
    public var spacingH: Double
    /// Grid origin, as a fraction of the image height.
    public var originV: Double
    /// Grid origin, as a fraction of the image width.
    public var originH: Double
    /// Planes in the map.
    public var mapPlanes: UInt32
    /// `pointsV × pointsH × mapPlanes` gains, rows outermost, planes innermost.
    public var gains: [Float]

    /// Creates a gain map.
    public init(
        area: OpcodeArea, pointsV: UInt32, pointsH: UInt32, spacingV: Double, spacingH: Double, originV: Double = 0,
        originH: Double = 0, mapPlanes: UInt32 = 1, gains: [Float]
    ) {
        self.area = area
        self.pointsV = pointsV
        self.pointsH = pointsH
        self.spacingV = spacingV
        self.spacingH = spacingH
        self.originV = originV
        self.originH = originH
        self.mapPlanes = mapPlanes
        self.gains = gains
    }

    /// The gain at grid point (`row`, `column`) for `plane`.
    public func gain(row: Int, column: Int, plane: Int = 0) -> Float {
        gains[(row * Int(pointsH) + column) * Int(mapPlanes) + min(plane, Int(mapPlanes) - 1)]
    }
}

extension DNGOpcode {
    /// Parses an opcode list blob (always big-endian).
    ///
    /// - Throws: ``CodecError`` naming the opcode when the list is truncated or a parameter block is
    ///   inconsistent.
    public static func parseList(_ bytes: [UInt8], name: String = "opcode list") throws(CodecError) -> [DNGOpcode] {
        var c = BigEndianCursor(bytes, what: name)
        let count = Int(try c.u32())
        // Each opcode needs at least 16 header bytes.
        guard count <= bytes.count / 16 else {
            throw .malformed(what: name, offset: 0, reason: "\(count) opcodes cannot fit in \(bytes.count) bytes")
        }
        var out: [DNGOpcode] = []
        out.reserveCapacity(count)
        for index in 0..<count {
            let id = try c.u32()
            let version = try c.u32()
            let flags = try c.u32()
            let length = Int(try c.u32())
            let start = c.position
            let params = try c.bytes(length)
            let what = "\(name) opcode \(index) (ID \(id))"
            let op: Operation
            do {
                op = try parseParameters(id: id, params, what: what, baseOffset: start)
            } catch {
                // A damaged known opcode is kept opaque rather than failing the whole file.
                op = .other(id: id, parameters: params)
            }
            out.append(
                DNGOpcode(op, dngVersion: version, isOptional: flags & 1 != 0, canSkipForPreview: flags & 2 != 0))
        }
        return out
    }

    static func parseParameters(id: UInt32, _ p: [UInt8], what: String, baseOffset: Int) throws(CodecError) -> Operation
    {
        var c = BigEndianCursor(p, what: what, baseOffset: baseOffset)
        switch id {
        case 1:
            let n = Int(try c.u32())
            guard n >= 1, n <= 4, p.count == 4 + n * 48 + 16 else {
                throw .malformed(what: what, offset: baseOffset, reason: "\(n) planes in \(p.count) bytes")
            }
            var planes: [WarpRectilinear.Coefficients] = []
            for _ in 0..<n {
                let kr = [try c.f64(), try c.f64(), try c.f64(), try c.f64()]
                let kt = [try c.f64(), try c.f64()]
                planes.append(.init(radial: kr, tangential: kt))
            }
            let cx = try c.f64()
            let cy = try c.f64()
            return .warpRectilinear(WarpRectilinear(planes: planes, centerX: cx, centerY: cy))
        case 3:
            guard p.count == 56 else { throw .malformed(what: what, offset: baseOffset, reason: "expected 56 bytes") }
            let k = [try c.f64(), try c.f64(), try c.f64(), try c.f64(), try c.f64()]
            let cx = try c.f64()
            let cy = try c.f64()
            return .fixVignetteRadial(FixVignetteRadial(coefficients: k, centerX: cx, centerY: cy))
        case 9:
            let area = OpcodeArea(
                top: try c.u32(), left: try c.u32(), bottom: try c.u32(), right: try c.u32(), plane: try c.u32(),
                planes: try c.u32(), rowPitch: try c.u32(), columnPitch: try c.u32())
            let pv = try c.u32()
            let ph = try c.u32()
            let sv = try c.f64()
            let sh = try c.f64()
            let ov = try c.f64()
            let oh = try c.f64()
            let mp = try c.u32()
            let (cells, o1) = Int(pv).multipliedReportingOverflow(by: Int(ph))
            let (n, o2) = cells.multipliedReportingOverflow(by: Int(mp))
            guard !o1, !o2, pv >= 1, ph >= 1, mp >= 1, c.remaining % 4 == 0, n == c.remaining / 4 else {
                throw .malformed(
                    what: what, offset: baseOffset, reason: "a \(pv)×\(ph)×\(mp) map does not match \(p.count) bytes")
            }
            var gains: [Float] = []
            gains.reserveCapacity(n)
            for _ in 0..<n { gains.append(try c.f32()) }
            return .gainMap(
                GainMap(
                    area: area, pointsV: pv, pointsH: ph, spacingV: sv, spacingH: sh, originV: ov, originH: oh,
                    mapPlanes: mp,
                    gains: gains))
        default:
            return .other(id: id, parameters: p)
        }
    }

    /// The big-endian parameter bytes.
    var parameterBytes: [UInt8] {
        var w = ByteWriter(bigEndian: true)
        switch operation {
        case .warpRectilinear(let warp):
            w.u32(UInt32(warp.planes.count))
            for plane in warp.planes {
                for i in 0..<4 { w.f64(i < plane.radial.count ? plane.radial[i] : 0) }
                for i in 0..<2 { w.f64(i < plane.tangential.count ? plane.tangential[i] : 0) }
            }
            w.f64(warp.centerX)
            w.f64(warp.centerY)
        case .fixVignetteRadial(let v):
            for i in 0..<5 { w.f64(i < v.coefficients.count ? v.coefficients[i] : 0) }
            w.f64(v.centerX)
            w.f64(v.centerY)
        case .gainMap(let g):
            for v in [
                g.area.top, g.area.left, g.area.bottom, g.area.right, g.area.plane, g.area.planes, g.area.rowPitch,
                g.area.columnPitch,
            ] {
                w.u32(v)
            }
            w.u32(g.pointsV)
            w.u32(g.pointsH)
            w.f64(g.spacingV)
            w.f64(g.spacingH)
            w.f64(g.originV)
            w.f64(g.originH)
            w.u32(g.mapPlanes)
            for gain in g.gains { w.f32(gain) }
        case .other(_, let parameters):
            w.append(parameters)
        }
        return w.bytes
    }

    /// Encodes an opcode list (big-endian).
    public static func encodeList(_ list: [DNGOpcode]) -> [UInt8] {
        var w = ByteWriter(bigEndian: true)
        w.u32(UInt32(list.count))
        for op in list {
            let params = op.parameterBytes
            w.u32(op.id)
            w.u32(op.dngVersion)
            w.u32((op.isOptional ? 1 : 0) | (op.canSkipForPreview ? 2 : 0))
            w.u32(UInt32(params.count))
            w.append(params)
        }
        return w.bytes
    }
}
