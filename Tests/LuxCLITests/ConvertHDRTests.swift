import Foundation
import LuxTestSupport
import Testing

/// `lux convert` of HDR HEICs: Apple gain maps kept, dropped or applied (Apple's published formula, the gain map as
/// libheif's heif-convert extracts it), and PQ and HLG inputs decoded with the BT.2100 EOTFs.
@Suite struct ConvertHDRTests {
    static let iPhone = "heic/iphone13pro_portrait_depth.heic"
    static let gainMapType = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// The first band of `path` as floats (vips casts and writes the raw samples), with its size.
    static func band(_ path: String, in dir: URL) throws -> (width: Int, height: Int, values: [Float]) {
        let name = UUID().uuidString
        let single = dir.appendingPathComponent(name + ".v").path
        let raw = dir.appendingPathComponent(name + ".raw").path
        var r = try ExternalTool.capture("vips", ["extract_band", path, single, "0"])
        try #require(r.status == 0, "vips: \(r.errorText)")
        let cast = dir.appendingPathComponent(name + "-f.v").path
        r = try ExternalTool.capture("vips", ["cast", single, cast, "float"])
        try #require(r.status == 0, "vips: \(r.errorText)")
        r = try ExternalTool.capture("vips", ["rawsave", cast, raw])
        try #require(r.status == 0, "vips: \(r.errorText)")
        let size = try ExternalTool.capture("vipsheader", ["-f", "width", cast]).text
        let height = try ExternalTool.capture("vipsheader", ["-f", "height", cast]).text
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let values = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let w = try #require(Int(size.trimmingCharacters(in: .whitespacesAndNewlines)))
        let h = try #require(Int(height.trimmingCharacters(in: .whitespacesAndNewlines)))
        try #require(values.count == w * h)
        return (w, h, values)
    }

    /// The auxiliary image types exiftool lists in `path`.
    static func auxiliaryTypes(_ path: String) throws -> [String] {
        try ExternalTool.capture("exiftool", ["-a", "-s3", "-AuxiliaryImageType", path]).text
            .split(separator: "\n").map(String.init)
    }

    /// The sRGB EOTF (IEC 61966-2-1).
    static func sRGBToLinear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// The inverse of the BT.709 OETF.
    static func rec709ToLinear(_ v: Double) -> Double {
        v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
    }

    @Test(
        "--hdr-gain-map keep stores the gain map in a HEIC output (exiftool lists it), drop leaves it out",
        .needsLux, .needs("exiftool"))
    func keepAndDrop() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert-hdr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path(Self.iPhone)
        #expect(try Self.auxiliaryTypes(input).contains(Self.gainMapType))
        for (mode, kept) in [("keep", true), ("drop", false)] {
            let out = dir.appendingPathComponent("\(mode).heic").path
            let r = try LuxExecutable.run(
                lux, ["convert", input, "-o", out, "--size", "1008x756", "--hdr-gain-map", mode])
            try #require(r.status == 0, "\(r.errorText)")
            #expect(try Self.auxiliaryTypes(out).contains(Self.gainMapType) == kept, "\(mode)")
        }
    }

    @Test(
        "--hdr-gain-map apply --hdr-headroom 3: HDR = SDR × (1 + (headroom − 1) × gain) in linear light, Apple's published formula with heif-convert's gain map",
        .needsLux, .needs("heif-convert", "vips", "vipsheader"))
    func apply() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert-hdr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path(Self.iPhone)
        let sdr = dir.appendingPathComponent("sdr.tif").path
        let hdr = dir.appendingPathComponent("hdr.tif").path
        for (out, mode) in [(sdr, "drop"), (hdr, "apply")] {
            let r = try LuxExecutable.run(
                lux,
                ["convert", input, "-o", out, "--size", "1008x756", "--depth", "float", "--hdr-gain-map", mode]
                    + (mode == "apply" ? ["--hdr-headroom", "3"] : []))
            try #require(r.status == 0, "\(r.errorText)")
        }
        // The photo's maker note has tag 33 but not tag 48, so the headroom is given (see the test below).
        let headroom = 3.0
        // libheif's gain map (2016 × 1512), halved to the outputs' 1008 × 756.
        let extracted = try ExternalTool.capture(
            "heif-convert", ["--with-aux", "--no-colons", "--quiet", input, dir.appendingPathComponent("ref.png").path])
        try #require(extracted.status == 0, "\(extracted.errorText)")
        let gainPath = dir.appendingPathComponent("ref-urn_com_apple_photo_2020_aux_hdrgainmap.png").path
        let halved = dir.appendingPathComponent("gain.v").path
        try #require(try ExternalTool.capture("vips", ["shrink", gainPath, halved, "2", "2"]).status == 0)

        let s = try Self.band(sdr, in: dir)
        let h = try Self.band(hdr, in: dir)
        let g = try Self.band(halved, in: dir)
        #expect(s.width == 1008 && h.width == 1008 && g.width == 1008 && s.height == 756 && g.height == 756)
        // Sums over 36 × 36 blocks of the HDR rendition against the formula applied to the SDR one.
        let side = 36
        var worst = 0.0
        var brightest = 0.0
        for by in 0..<(756 / side) {
            for bx in 0..<(1008 / side) {
                var measured = 0.0
                var expected = 0.0
                var base = 0.0
                for y in (by * side)..<((by + 1) * side) {
                    for x in (bx * side)..<((bx + 1) * side) {
                        let i = y * 1008 + x
                        let linear = Self.sRGBToLinear(Double(s.values[i]))
                        let gain = Self.rec709ToLinear(Double(g.values[i]) / 255)
                        measured += Double(h.values[i])
                        expected += linear * (1 + (headroom - 1) * gain)
                        base += linear
                    }
                }
                guard base > 1 else { continue }
                worst = max(worst, abs(measured / expected - 1))
                brightest = max(brightest, measured / base)
            }
        }
        #expect(worst < 0.03, "worst block off by \(worst * 100) %")
        // The highlights are brightened: the brightest block gains more than 25 % (this photo's gain map is dim).
        #expect(brightest > 1.25, "brightest gain \(brightest), headroom \(headroom)")
    }

    @Test(
        "--hdr-gain-map apply refuses a photo whose maker note lacks tag 48 (exiftool: HDRHeadroom but no HDRGain), as Apple's document counts its gain map invalid, and writes nothing",
        .needsLux, .needs("exiftool"))
    func applyNeedsBothMakerNoteTags() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert-hdr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path(Self.iPhone)
        let tags = try ExternalTool.capture("exiftool", ["-s", "-n", "-HDRHeadroom", "-HDRGain", input]).text
        #expect(tags.contains("HDRHeadroom") && !tags.contains("HDRGain"), "\(tags)")
        let out = dir.appendingPathComponent("hdr.tif").path
        let r = try LuxExecutable.run(
            lux, ["convert", input, "-o", out, "--depth", "float", "--hdr-gain-map", "apply"])
        #expect(r.status != 0)
        #expect(r.errorText.contains("tags 33 and 48") && r.errorText.contains("--hdr-headroom"), "\(r.errorText)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let misuse = try LuxExecutable.run(lux, ["convert", input, "-o", out, "--hdr-headroom", "0.5"])
        #expect(misuse.status != 0 && !FileManager.default.fileExists(atPath: out))
    }

    /// A gray HEIC of 128 × 128 patches with these code values (0…1), 10-bit, whose colour is described by an `nclx`
    /// box with BT.2020 primaries and `transfer`.
    ///
    /// heif-enc 1.15 ignores its nclx options (it writes no `colr` box) and Lux writes ICC profiles, so the HEIC is
    /// written by `lux convert` from a 16-bit PNG of the codes (sRGB in, sRGB out: the codes are stored as they are)
    /// and its `colr`/`prof` box is rewritten in place as `colr`/`nclx` (libheif skips the rest of the box).
    static func patches(_ codes: [Double], transfer: Int, lux: String, in dir: URL) throws -> String {
        let (w, h) = (128 * codes.count, 128)
        var ppm = Data("P6\n\(w) \(h)\n65535\n".utf8)
        for _ in 0..<h {
            for x in 0..<w {
                let v = UInt16((codes[x / 128] * 65535).rounded())
                for _ in 0..<3 { ppm.append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xFF)]) }
            }
        }
        let ppmPath = dir.appendingPathComponent("patches-\(transfer).ppm").path
        let pngPath = dir.appendingPathComponent("patches-\(transfer).png").path
        let heicPath = dir.appendingPathComponent("patches-\(transfer).heic").path
        try ppm.write(to: URL(fileURLWithPath: ppmPath))
        try #require(try ExternalTool.capture("vips", ["copy", ppmPath, pngPath]).status == 0)
        let r = try LuxExecutable.run(lux, ["convert", pngPath, "-o", heicPath, "--depth", "10", "--quality", "95"])
        try #require(r.status == 0, "\(r.errorText)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: heicPath)))
        let marker = Array("colrprof".utf8)
        let at = try #require(
            (0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        // colour_type nclx; primaries 9 (BT.2020), transfer, matrix 6 (BT.601, Lux's Y′CbCr), full range.
        let nclx: [UInt8] = Array("nclx".utf8) + [0, 9, 0, UInt8(transfer), 0, 6, 0x80]
        bytes.replaceSubrange((at + 4)..<(at + 4 + nclx.count), with: nclx)
        try Data(bytes).write(to: URL(fileURLWithPath: heicPath))
        let info = try ExternalTool.capture("heif-info", [heicPath])
        try #require(info.text.contains("color profile: nclx"), "\(info.text)")
        return heicPath
    }

    /// The mean of the central 64 × 64 pixels of each 128-pixel patch.
    static func patchMeans(_ image: (width: Int, height: Int, values: [Float]), count: Int) -> [Double] {
        (0..<count).map { p in
            var sum = 0.0
            for y in 32..<96 {
                for x in (128 * p + 32)..<(128 * p + 96) { sum += Double(image.values[y * image.width + x]) }
            }
            return sum / 4096
        }
    }

    /// SMPTE ST 2084 EOTF: cd/m² for a code value 0…1.
    static func pq(_ e: Double) -> Double {
        let (m1, m2, c1, c2, c3) = (
            2610.0 / 16384, 2523.0 / 4096 * 128, 3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32
        )
        let p = pow(e, 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// BT.2100 HLG: the inverse OETF then the OOTF of a 1000 cd/m² display (γ 1.2; for gray, Ys = E), in cd/m².
    static func hlg(_ e: Double) -> Double {
        let (a, b) = (0.17883277, 1 - 4 * 0.17883277)
        let c = 0.5 - a * log(4 * a)
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return 1000 * pow(scene, 1.2)
    }

    @Test(
        "PQ and HLG HEICs decode to the BT.2100 EOTF (203 cd/m² = 1.0) in a float TIFF, and to Reinhard's documented operator in a 16-bit PNG",
        .needsLux, .needs("heif-info", "vips", "vipsheader"),
        arguments: [(16, [0.3, 0.5, 0.58, 0.75], 10000.0), (18, [0.25, 0.5, 0.75, 0.9], 1000.0)])
    func pqAndHLG(transfer: Int, codes: [Double], peak: Double) throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert-hdr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.patches(codes, transfer: transfer, lux: lux, in: dir)
        let linear = dir.appendingPathComponent("linear.tif").path
        let sdr = dir.appendingPathComponent("sdr.png").path
        for (out, depth) in [(linear, "float"), (sdr, "16")] {
            let r = try LuxExecutable.run(lux, ["convert", input, "-o", out, "--depth", depth])
            try #require(r.status == 0, "\(r.errorText)")
        }
        // The HEIC stores 10-bit codes.
        let stored = codes.map { ($0 * 1023).rounded() / 1023 }
        let nits = stored.map { transfer == 16 ? Self.pq($0) : Self.hlg($0) }
        let measured = Self.patchMeans(try Self.band(linear, in: dir), count: codes.count)
        for (m, n) in zip(measured, nits) {
            #expect(abs(m / (n / 203) - 1) < 0.03, "\(m) vs \(n / 203) (\(n) cd/m²)")
        }
        // Reinhard's extended operator L (1 + L / W²) / (1 + L), W the format's peak, then the sRGB curve.
        let w = peak / 203
        let png = Self.patchMeans(try Self.band(sdr, in: dir), count: codes.count).map { $0 / 65535 }
        for (v, n) in zip(png, nits) {
            let l = n / 203
            let mapped = l * (1 + l / (w * w)) / (1 + l)
            let encoded = mapped <= 0.0031308 ? 12.92 * mapped : 1.055 * pow(mapped, 1 / 2.4) - 0.055
            #expect(abs(v - encoded) < 0.02, "\(v) vs \(encoded) for \(n) cd/m²")
        }
    }
}
