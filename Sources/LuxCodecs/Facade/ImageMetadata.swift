/// Metadata that travels with decoded pixels: Exif, XMP and the embedded ICC profile.
///
/// The colour space itself is attached to the ``PixelBuffer`` (``ImageFile/pixels``); `iccProfile` keeps
/// the exact profile bytes so a re-encode can embed the same profile.
public struct ImageMetadata: Hashable, Sendable, Codable {
    /// Exif fields (empty when the file had none).
    public var exif: EXIF
    /// The XMP packet (UTF-8 XML), preserved verbatim.
    public var xmp: [UInt8]?
    /// The embedded ICC profile bytes.
    public var iccProfile: [UInt8]?

    /// Creates metadata.
    public init(exif: EXIF = EXIF(), xmp: [UInt8]? = nil, iccProfile: [UInt8]? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iccProfile = iccProfile
    }

    /// The orientation (Exif tag 274), `.up` when absent.
    public var orientation: Orientation {
        get { exif.orientation ?? .up }
        set { exif.orientation = newValue }
    }

    /// The Live Photo asset identifier from an Apple maker note, when present.
    public var livePhotoContentIdentifier: String? { exif.appleMakerNote?.contentIdentifier }

    /// The XMP packet as text.
    public var xmpString: String? { xmp.map { String(decoding: $0, as: UTF8.self) } }
}
