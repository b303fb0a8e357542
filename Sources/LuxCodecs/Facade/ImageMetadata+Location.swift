extension ImageMetadata {
    /// Removes where the photo was taken: the Exif GPS directory and the GPS properties of the XMP packet
    /// (`exif:GPS…` attributes and elements), keeping everything else.
    public mutating func removeLocation() {
        exif.gps = nil
        exif.additionalFields.removeAll { $0.directory == .gps }
        if let packet = xmpString {
            xmp = Array(Self.removingXMPLocation(packet).utf8)
        }
    }

    /// The XMP packet without `exif:GPS…` properties: `exif:GPSName="…"` attributes and
    /// `<exif:GPSName>…</exif:GPSName>` elements.
    static func removingXMPLocation(_ packet: String) -> String {
        var text = packet
        // Attributes: whitespace, the name, = and a quoted value.
        if let attribute = try? Regex(#"\s+exif:GPS[A-Za-z]+\s*=\s*("[^"]*"|'[^']*')"#) {
            text = text.replacing(attribute, with: "")
        }
        // Elements, possibly with nested rdf content; non-greedy up to the matching closing tag.
        if let element = try? Regex(#"<exif:(GPS[A-Za-z]+)\b[^>]*?(/>|>[\s\S]*?</exif:\1>)"#) {
            text = text.replacing(element, with: "")
        }
        return text
    }
}
