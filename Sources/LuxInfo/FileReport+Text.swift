import Foundation
import LuxCodecs

extension FileReport {
    /// The report as labelled lines for people to read, the way `lux info` prints them (nested items' labels begin
    /// with two spaces).
    public var lines: [(label: String, value: String)] {
        var out: [(label: String, value: String)] = [("format", formatName), ("size", "\(width) × \(height)")]
        func add(_ label: String, _ value: String?) { if let value { out.append((label, value)) } }
        if let p = pixels {
            add(
                "pixels",
                "\(p.pixelFormat), \(p.bitsPerSample)-bit, \(p.samplesPerPixel) sample\(p.samplesPerPixel == 1 ? "" : "s")\(p.hasAlpha ? ", alpha" : "")"
            )
            add("colour model", p.colorModel.flatMap { ColorModel(rawValue: $0)?.description })
        }
        add("storage", storage)
        add("colour space", colorSpace)
        add(
            "ICC profile",
            iccProfile.map { p in
                let kind = [p.version.map { "ICC \($0)" }, p.deviceClass, p.colorSpace].compactMap { $0 }
                return
                    "\(p.description ?? "unnamed") (\(p.bytes) bytes\(kind.isEmpty ? "" : ", " + kind.joined(separator: " ")))"
            })
        if let e = exif { out += e.lines }
        add("XMP", xmpBytes.map { "\($0) bytes" })
        if let r = raw { out += r.lines }
        if let h = heif { out += h.lines }
        if let m = movie {
            add("movie", String(format: "QuickTime '%@', %.3f s", m.brand, m.duration))
            add("still time", m.stillImageTime.map { String(format: "%.3f s", $0) })
            for t in m.tracks {
                var text =
                    "#\(t.id) \(t.kind) \(t.codecName), \(t.samples) samples, " + String(format: "%.3f s", t.duration)
                if let w = t.width, let h = t.height {
                    text += ", \(w)×\(h)" + (t.frameRate.map { String(format: " @ %.2f fps", $0) } ?? "")
                }
                if let r = t.sampleRate { text += ", \(Int(r)) Hz × \(t.channels ?? 0)" }
                add("  track", text)
            }
        }
        if let l = livePhoto {
            var text = l.contentIdentifier ?? "no content identifier"
            if let partner = l.partner {
                let name = URL(fileURLWithPath: partner).lastPathComponent
                text +=
                    l.paired
                    ? ", paired with \(name)"
                    : ", beside \(name) (\(l.partnerContentIdentifier.map { "identifier \($0) differs" } ?? "no identifier"): not a pair)"
            } else if l.contentIdentifier != nil {
                text += ", partner not found beside it"
            }
            add("Live Photo", text)
        }
        return out
    }
}

extension FileReport.EXIFSummary {
    var lines: [(label: String, value: String)] {
        var out: [(label: String, value: String)] = []
        let camera = [make, model].compactMap { $0 }.joined(separator: " ")
        if !camera.isEmpty { out.append(("camera", camera)) }
        if let lensModel { out.append(("lens", lensModel)) }
        if let orientation { out.append(("orientation", "\(orientation)")) }
        // Zero exposure, aperture, ISO or focal length means "not recorded" (some raw writers store zeros); the
        // text leaves them out, the JSON report keeps the stored values.
        var capture: [String] = []
        if let v = exposureTime, v > 0 { capture.append(v < 1 ? "1/\(Int((1 / v).rounded())) s" : "\(v) s") }
        if let fNumber, fNumber > 0 { capture.append("f/\(fNumber)") }
        if let iso, iso > 0 { capture.append("ISO \(iso)") }
        if let focalLength, focalLength > 0 { capture.append("\(focalLength) mm") }
        if !capture.isEmpty, let exposureBias { capture.append("\(exposureBias) EV") }
        if let flash { capture.append(flash & 1 == 1 ? "flash fired" : "no flash") }
        if !capture.isEmpty { out.append(("capture", capture.joined(separator: ", "))) }
        if let dateTimeOriginal { out.append(("taken", dateTimeOriginal)) }
        if let software { out.append(("software", software)) }
        if let latitude, let longitude { out.append(("location", String(format: "%.5f, %.5f", latitude, longitude))) }
        return out
    }
}

extension FileReport.RawSummary {
    var lines: [(label: String, value: String)] {
        var out: [(label: String, value: String)] = []
        func add(_ label: String, _ value: String?) { if let value { out.append((label, value)) } }
        func matrix(_ m: [Double]?) -> String? {
            m.map { $0.map { String(format: "%.4f", $0) }.joined(separator: " ") }
        }
        func list(_ v: [Double]?) -> String? { v.map { $0.map { String(format: "%g", $0) }.joined(separator: " ") } }
        add("unique model", uniqueCameraModel)
        add("raw", "\(bitsPerSample)-bit \(layout)")
        add("black level", list(blackLevel))
        add("white level", list(whiteLevel))
        add("linearization", linearizationTableEntries.map { "\($0)-entry table" })
        add(
            "active area",
            "top \(activeArea[0]), left \(activeArea[1]), bottom \(activeArea[2]), right \(activeArea[3])")
        add("default crop", defaultCrop.map { "x \(Int($0[0])), y \(Int($0[1])), \(Int($0[2])) × \(Int($0[3]))" })
        add(
            "ColorMatrix1",
            matrix(colorMatrix1).map { $0 + (calibrationIlluminant1.map { " (illuminant \($0))" } ?? "") })
        add(
            "ColorMatrix2",
            matrix(colorMatrix2).map { $0 + (calibrationIlluminant2.map { " (illuminant \($0))" } ?? "") })
        add("ForwardMatrix1", matrix(forwardMatrix1))
        add("ForwardMatrix2", matrix(forwardMatrix2))
        add("as-shot neutral", asShotNeutral.map { $0.map { String(format: "%.4f", $0) }.joined(separator: " ") })
        add("as-shot white", asShotWhiteXY.map { String(format: "x %.4f, y %.4f", $0[0], $0[1]) })
        add(
            "scene white",
            sceneWhite.map {
                String(format: "%.0f K, tint %+.1f (x %.4f, y %.4f)", $0.temperature, $0.tint, $0.x, $0.y)
            })
        add("analog balance", list(analogBalance))
        add("baseline exp.", baselineExposure.map { "\($0) EV" })
        add("noise profile", list(noiseProfile))
        add("OpcodeList1", opcodeList1?.joined(separator: ", "))
        add("OpcodeList2", opcodeList2?.joined(separator: ", "))
        add("OpcodeList3", opcodeList3?.joined(separator: ", "))
        add(
            "previews",
            previews.isEmpty
                ? "none" : previews.map { "\($0.width)×\($0.height) \($0.encoding)" }.joined(separator: ", "))
        return out
    }
}

extension HEIFContents {
    /// The brands, then each top-level image with its thumbnails, auxiliary images and metadata items.
    var lines: [(label: String, value: String)] {
        var out: [(label: String, value: String)] = [
            (
                "HEIF",
                "brand \(mainBrand) (\(compatibleBrands.joined(separator: ", "))), \(images.count) image\(images.count == 1 ? "" : "s")"
            )
        ]
        for image in images {
            var text = "\(image.width) × \(image.height)"
            if image.storedWidth != image.width || image.storedHeight != image.height {
                text += " (stored \(image.storedWidth) × \(image.storedHeight))"
            }
            text += image.isPrimary ? ", primary" : ""
            text +=
                ", \(image.bitDepth)-bit" + (image.chromaBitDepth != image.bitDepth ? "/\(image.chromaBitDepth)" : "")
            text += image.hasAlpha ? ", alpha" : ""
            if let icc = image.iccProfileDescription { text += ", ICC \(icc)" }
            if let nclx = image.nclx { text += ", nclx \(nclx)" }
            out.append(("image \(image.index)", text))
            if let g = image.grid {
                out.append(
                    (
                        "  grid",
                        "\(g.columns) columns × \(g.rows) rows of \(g.tileWidth) × \(g.tileHeight) \(g.tileCodec) tiles, "
                            + "output \(g.width) × \(g.height)"
                    ))
            }
            for t in image.thumbnails { out.append(("  thumbnail", "\(t.width) × \(t.height), \(t.bitDepth)-bit")) }
            for a in image.auxiliaryImages {
                out.append(
                    ("  auxiliary", "\(a.kind.rawValue) \(a.width) × \(a.height), \(a.bitDepth)-bit (\(a.type))"))
            }
            if let d = image.depth { out.append(("  depth", d.kind.rawValue)) }
            for m in image.metadata {
                out.append(("  metadata", "\(m.contentType.map { "\(m.type) \($0)" } ?? m.type), \(m.byteCount) bytes"))
            }
        }
        return out
    }
}
