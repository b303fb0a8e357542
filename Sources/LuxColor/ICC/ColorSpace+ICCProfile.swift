extension ColorSpace {
    /// An ICC display profile (class `mntr`) describing this RGB or gray space.
    ///
    /// - **v4** (4.3): `desc` and `cprt` as `mluc`, `wtpt` = D50, `chad` = Bradford from the space's white
    ///   to D50, D50-adapted colorants, `para` tone curves (function type 3, or type 0 for a pure power law;
    ///   the three channels share one block), and the MD5 profile ID.
    /// - **v2** (2.4), for readers that predate v4: `desc`/`text`, `wtpt` = the space's real white (display
    ///   practice), the same colorants, `curv` tone curves (a u8Fixed8 gamma for power laws whose exponent
    ///   it holds exactly, such as Adobe RGB's 563/256; otherwise 1024 samples).
    ///
    /// The numbers match lcms2's built-in sRGB bit for bit. The creation date is fixed (2025-01-01), so a
    /// space always produces the same bytes. Extended-range behaviour is not representable in ICC and is
    /// dropped.
    ///
    /// - Parameter version: The ICC generation to write.
    /// - Throws: ``ColorError/unsupportedProfile(description:reason:)`` for XYZ and Lab spaces (they are the
    ///   connection spaces, not device spaces) and for collinear primaries; ``ColorError/outOfRange(name:value:allowed:)``
    ///   when a curve parameter does not fit s15Fixed16.
    public func iccProfile(version: ICCProfile.Version = .v4) throws(ColorError) -> ICCProfile {
        var tags: [(String, [UInt8])] = []
        let copyright = "No copyright, use freely"
        switch version {
        case .v4:
            tags.append(("desc", ICCTagCoding.encodeMLUC(name)))
            tags.append(("cprt", ICCTagCoding.encodeMLUC(copyright)))
        case .v2:
            tags.append(("desc", ICCTagCoding.encodeDesc(name)))
            tags.append(("cprt", ICCTagCoding.encodeText(copyright)))
        }
        let white = whitePoint.xyz()
        let chad = ChromaticAdaptation.bradford(from: white, to: WhitePoint.iccD50XYZ)
        tags.append(("wtpt", try ICCTagCoding.encodeXYZ(version == .v4 ? WhitePoint.iccD50XYZ : white)))
        if version == .v4 { tags.append(("chad", try ICCTagCoding.encodeSF32(chad))) }

        let signature: String
        switch model {
        case .rgb:
            guard let matrix = matrixToXYZ else {
                throw .unsupportedProfile(description: name, reason: "its primaries are collinear")
            }
            let adapted = chad * matrix
            for (i, tagName) in ["rXYZ", "gXYZ", "bXYZ"].enumerated() {
                let column = SIMD3(adapted[0, i], adapted[1, i], adapted[2, i])
                tags.append((tagName, try ICCTagCoding.encodeXYZ(column)))
            }
            let curve = try encodedCurve(version)
            for tagName in ["rTRC", "gTRC", "bTRC"] { tags.append((tagName, curve)) }
            signature = "RGB "
        case .gray:
            tags.append(("kTRC", try encodedCurve(version)))
            signature = "GRAY"
        case .xyz, .lab:
            throw .unsupportedProfile(
                description: name,
                reason: "XYZ and Lab are ICC connection spaces; only RGB and gray spaces are written as profiles")
        }
        return try ICCProfileAssembler.assemble(tags: tags, dataColorSpace: signature, version: version)
    }

    /// The tone-curve tag for this space's transfer function.
    private func encodedCurve(_ version: ICCProfile.Version) throws(ColorError) -> [UInt8] {
        switch (transferFunction, version) {
        case (.linear, .v4):
            return try ICCTagCoding.encodePara(.gamma(1))
        case (.linear, .v2):
            return ICCTagCoding.encodeCurv(samples: [])
        case (.parametric(let c), .v4):
            return try ICCTagCoding.encodePara(c)
        case (.parametric(let c), .v2):
            // A one-entry curv holds the exponent as u8Fixed8; other power laws are sampled to keep precision.
            let fixed = c.g * 256
            if c == .gamma(c.g) && fixed >= 1 && fixed < 65536 && fixed == Double(Int(fixed)) {
                return try ICCTagCoding.encodeCurv(gamma: c.g)
            }
            let samples = (0..<1024).map { i in
                UInt16(min(max(c.linear(fromEncoded: Double(i) / 1023), 0), 1) * 65535 + 0.5)
            }
            return ICCTagCoding.encodeCurv(samples: samples)
        case (.sampled(let s), _):
            return ICCTagCoding.encodeCurv(samples: s.samples.map { UInt16(min(max($0, 0), 1) * 65535 + 0.5) })
        }
    }
}
