/// An ICC colour profile (ICC.1 v2 or v4): its bytes plus what its header and description say.
///
/// Creating a profile parses and validates the header and tag table — every offset and length is
/// checked against the data, so a truncated or hostile file throws instead of reading out of bounds.
/// The tag contents a conversion needs are read by ``colorSpace()``, which turns matrix/TRC RGB and gray
/// profiles into a ``ColorSpace``. Other kinds (LUT-based, CMYK, device links, named colours) are still
/// parsed, so they can be identified, carried along and re-embedded unchanged.
///
/// ```swift
/// let profile = try ICCProfile(data: bytes)          // e.g. from a JPEG's APP2 segments
/// print(profile.profileDescription, profile.version) // "Display P3 v4"
/// let space = try profile.colorSpace()               // == .displayP3 when it is Display P3
/// let written = try ColorSpace.sRGB.iccProfile()     // a v4.3 sRGB profile to embed
/// ```
public struct ICCProfile: Hashable, Sendable, CustomStringConvertible {
    /// The ICC specification generation a profile follows.
    public enum Version: Hashable, Sendable, CustomStringConvertible {
        /// ICC.1 version 2 (2.0–2.4): the widest-read format, `desc`/`text`/`curv` tags.
        case v2
        /// ICC.1 version 4 (4.0–4.4): `mluc` text, `para` curves, `chad`, MD5 profile ID.
        case v4

        public var description: String {
            switch self {
            case .v2: "v2"
            case .v4: "v4"
            }
        }
    }

    /// The profile/device class from header bytes 12–15 (a four-character signature).
    public struct DeviceClass: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The four-character signature, such as `"mntr"`.
        public let rawValue: String
        /// Creates a class from its four-character signature.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Input devices such as cameras and scanners (`scnr`).
        public static let input = DeviceClass(rawValue: "scnr")
        /// Displays (`mntr`); the class of every profile Lux writes.
        public static let display = DeviceClass(rawValue: "mntr")
        /// Output devices such as printers (`prtr`).
        public static let output = DeviceClass(rawValue: "prtr")
        /// Device links (`link`): a fixed transform from one device space to another.
        public static let deviceLink = DeviceClass(rawValue: "link")
        /// Colour space conversion profiles (`spac`).
        public static let colorSpace = DeviceClass(rawValue: "spac")
        /// Abstract profiles (`abst`): PCS-to-PCS effects.
        public static let abstract = DeviceClass(rawValue: "abst")
        /// Named colour profiles (`nmcl`).
        public static let namedColor = DeviceClass(rawValue: "nmcl")

        public var description: String {
            let names: [String: String] = [
                "scnr": "input", "mntr": "display", "prtr": "output", "link": "device link",
                "spac": "colour space", "abst": "abstract", "nmcl": "named colour",
            ]
            return names[rawValue].map { "\($0) ('\(rawValue)')" } ?? "'\(rawValue)'"
        }
    }

    /// A colour space signature from the header: the data colour space (bytes 16–19) or the profile
    /// connection space (bytes 20–23).
    public struct ColorSpaceSignature: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The four-character signature, such as `"RGB "`.
        public let rawValue: String
        /// Creates a signature from its four characters.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// RGB (`RGB `).
        public static let rgb = ColorSpaceSignature(rawValue: "RGB ")
        /// Gray (`GRAY`).
        public static let gray = ColorSpaceSignature(rawValue: "GRAY")
        /// CMYK (`CMYK`).
        public static let cmyk = ColorSpaceSignature(rawValue: "CMYK")
        /// CMY (`CMY `).
        public static let cmy = ColorSpaceSignature(rawValue: "CMY ")
        /// CIE XYZ (`XYZ `), also the usual profile connection space.
        public static let xyz = ColorSpaceSignature(rawValue: "XYZ ")
        /// CIE L*a*b* (`Lab `).
        public static let lab = ColorSpaceSignature(rawValue: "Lab ")
        /// Y′CbCr (`YCbr`).
        public static let yCbCr = ColorSpaceSignature(rawValue: "YCbr")

        public var description: String {
            var s = Substring(rawValue)
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }
    }

    /// The profile's bytes (exactly the size its header declares).
    public let data: [UInt8]
    /// The profile's description (`desc` tag; the en-US text of an `mluc`), or "" when it has none.
    public let profileDescription: String
    /// The specification generation (major version 2 or 4).
    public let version: Version
    /// The major version from the header (2 or 4).
    public let majorVersion: Int
    /// The minor version from the header (for example 3 in 4.3).
    public let minorVersion: Int
    /// The profile/device class.
    public let deviceClass: DeviceClass
    /// The colour space of the device values (`RGB `, `GRAY`, `CMYK`, …).
    public let dataColorSpace: ColorSpaceSignature
    /// The profile connection space (`XYZ ` or `Lab `; for device links, the output space).
    public let connectionSpace: ColorSpaceSignature
    /// The tag signatures in tag-table order, such as `["desc", "cprt", "wtpt", …]`.
    public var tagSignatures: [String] { tags.map { ICCSignature.string($0.signature) } }

    /// The tag table (signature, offset and size of each tag, all checked to lie inside `data`).
    let tags: [TagEntry]

    struct TagEntry: Hashable, Sendable {
        var signature: UInt32
        var offset: Int
        var size: Int
    }

    /// Parses a profile.
    ///
    /// Bytes after the size the header declares are ignored (some containers pad profiles).
    ///
    /// - Parameter data: The complete profile, starting with the 128-byte header.
    /// - Throws: ``ColorError/malformedProfile(reason:offset:)`` when the header, tag table or description
    ///   is truncated or inconsistent; ``ColorError/unsupportedProfile(description:reason:)`` for an ICC
    ///   generation other than 2 or 4 (such as iccMAX, version 5).
    public init(data: [UInt8]) throws(ColorError) {
        let all = ICCBytes(data)
        guard data.count >= 132 else {
            throw .malformedProfile(
                reason: "\(data.count) bytes is too short for the 128-byte header and the tag count",
                offset: data.count)
        }
        let declared = Int(try all.uint32(0))
        guard declared >= 132, declared <= data.count else {
            throw .malformedProfile(
                reason: "the header declares \(declared) bytes but \(data.count) are present (at least 132 needed)",
                offset: 0)
        }
        guard try all.uint32(36) == ICCSignature.value("acsp") else {
            throw .malformedProfile(reason: "the header lacks the 'acsp' signature", offset: 36)
        }
        let bytes = declared == data.count ? data : Array(data[0..<declared])
        let profile = ICCBytes(bytes)
        let major = Int(try profile.uint8(8))
        let minor = Int(try profile.uint8(9) >> 4)
        let version: Version
        switch major {
        case 2, 3: version = .v2  // there is no ICC v3; treat stray 3.x headers as v2
        case 4: version = .v4
        case 5:
            throw .unsupportedProfile(description: "", reason: "ICC version 5 (iccMAX) profiles are not supported")
        default:
            throw .malformedProfile(reason: "unknown ICC major version \(major)", offset: 8)
        }

        let count = Int(try profile.uint32(128))
        guard count <= (declared - 132) / 12 else {
            throw .malformedProfile(
                reason: "the tag table lists \(count) tags, more than fit in \(declared) bytes", offset: 128)
        }
        var tags = [TagEntry]()
        tags.reserveCapacity(count)
        for i in 0..<count {
            let at = 132 + 12 * i
            let signature = try profile.uint32(at)
            let offset = Int(try profile.uint32(at + 4))
            let size = Int(try profile.uint32(at + 8))
            guard offset >= 128, size >= 8, offset <= declared, size <= declared - offset else {
                throw .malformedProfile(
                    reason: "tag '\(ICCSignature.string(signature))' at \(offset) with \(size) bytes lies outside "
                        + "the \(declared)-byte profile (or is shorter than 8 bytes)",
                    offset: at)
            }
            tags.append(TagEntry(signature: signature, offset: offset, size: size))
        }

        self.data = bytes
        self.tags = tags
        self.version = version
        self.majorVersion = major
        self.minorVersion = minor
        self.deviceClass = DeviceClass(rawValue: try profile.signature(12))
        self.dataColorSpace = ColorSpaceSignature(rawValue: try profile.signature(16))
        self.connectionSpace = ColorSpaceSignature(rawValue: try profile.signature(20))
        let descValue = ICCSignature.value("desc")
        if let desc = tags.first(where: { $0.signature == descValue }) {
            let view = ICCBytes(bytes, start: desc.offset, count: desc.size, context: "tag 'desc'")
            self.profileDescription = try ICCTagCoding.text(view)
        } else {
            self.profileDescription = ""
        }
    }

    /// A bounds-checked view of the first tag with `signature`, or `nil` when the profile has none.
    func tag(_ signature: String) throws(ColorError) -> ICCBytes? {
        let value = ICCSignature.value(signature)
        guard let entry = tags.first(where: { $0.signature == value }) else { return nil }
        return ICCBytes(data, start: entry.offset, count: entry.size, context: "tag '\(signature)'")
    }

    /// Whether the profile has a tag with `signature`.
    func hasTag(_ signature: String) -> Bool {
        let value = ICCSignature.value(signature)
        return tags.contains { $0.signature == value }
    }

    /// The profile ID from the header (the MD5 of the profile in v4), or `nil` when it is all zeros.
    public var profileID: [UInt8]? {
        let id = Array(data[84..<100])
        return id.allSatisfy { $0 == 0 } ? nil : id
    }

    public var description: String {
        let name = profileDescription.isEmpty ? "ICC profile" : "“\(profileDescription)”"
        return "\(name) (ICC \(majorVersion).\(minorVersion) \(deviceClass.description), "
            + "\(dataColorSpace) → \(connectionSpace))"
    }

    public static func == (lhs: ICCProfile, rhs: ICCProfile) -> Bool { lhs.data == rhs.data }

    public func hash(into hasher: inout Hasher) { hasher.combine(data) }
}
