/// What a HEIF file holds: its brands and every top-level image with its thumbnails, auxiliary images and metadata
/// (``ImageInfo/heif``).
///
/// ```swift
/// let info = try ImageFile.info(url: URL(fileURLWithPath: "IMG_0001.HEIC"))
/// for image in info.heif?.images ?? [] {
///     print(image.index, image.width, image.height, image.auxiliaryImages.map(\.type))
/// }
/// ```
public struct HEIFContents: Hashable, Sendable, Codable {
    /// The main brand of the `ftyp` box (`heic`, `heix`, `mif1`, `avif` …).
    public var mainBrand: String
    /// The compatible brands.
    public var compatibleBrands: [String]
    /// The top-level images: the primary first, then the others in file order (the order of `heif-info`); an
    /// image's position is the index ``DecodingOptions/imageIndex`` selects.
    public var images: [HEIFImageDescription]
}

/// One top-level image of a HEIF file.
public struct HEIFImageDescription: Hashable, Sendable, Codable {
    /// The position in ``HEIFContents/images`` (0 = the primary image).
    public var index: Int
    /// The HEIF item ID.
    public var itemID: UInt32
    /// Whether this is the file's primary image.
    public var isPrimary: Bool
    /// The width as displayed: after the clean aperture (`clap`) and rotation (`irot`).
    public var width: Int
    /// The height as displayed.
    public var height: Int
    /// The coded width (`ispe`), before the transforms.
    public var storedWidth: Int
    /// The coded height (`ispe`).
    public var storedHeight: Int
    /// Bits per luma sample.
    public var bitDepth: Int
    /// Bits per chroma sample.
    public var chromaBitDepth: Int
    /// Whether the image has an alpha auxiliary image.
    public var hasAlpha: Bool
    /// The description (`desc` tag) of the embedded ICC profile, when there is one.
    public var iccProfileDescription: String?
    /// The `nclx` colour description, when there is one.
    public var nclx: NCLXColorDescription?
    /// The thumbnails, in file order (``ImageComponent/thumbnail(_:)`` reads one).
    public var thumbnails: [HEIFAuxiliaryImage]
    /// The auxiliary images: depth or disparity maps, HDR gain maps, alpha and others, in file order.
    public var auxiliaryImages: [HEIFAuxiliaryImage]
    /// How the depth image's values relate to distance, when there is a depth image.
    public var depth: DepthRepresentation?
    /// The metadata items attached to the image.
    public var metadata: [HEIFMetadataBlock]
    /// How the image is tiled when it is a grid image (iPhones' 512 × 512 HEVC tiles); `nil` for an image coded
    /// whole, or when the grid's boxes cannot be read (libheif may still decode it).
    public var grid: HEIFGridLayout? = nil
}

/// A thumbnail or auxiliary image of a HEIF image.
public struct HEIFAuxiliaryImage: Hashable, Sendable, Codable {
    /// The HEIF item ID.
    public var itemID: UInt32
    /// The auxiliary type URN (`urn:mpeg:hevc:2015:auxid:2` for depth, Apple's
    /// `urn:com:apple:photo:2020:aux:hdrgainmap` …); `"thumbnail"` for thumbnails.
    public var type: String
    /// What the image is.
    public var kind: HEIFAuxiliaryKind
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per luma sample.
    public var bitDepth: Int
}

/// The role of a thumbnail or auxiliary image.
public enum HEIFAuxiliaryKind: String, Hashable, Sendable, Codable {
    /// A reduced-size copy of the image (`thmb` reference).
    case thumbnail
    /// The alpha channel (`urn:mpeg:hevc:2015:auxid:1`, `urn:mpeg:mpegB:cicp:systems:auxiliary:alpha`).
    case alpha
    /// A depth or disparity map (`urn:mpeg:hevc:2015:auxid:2`, `urn:mpeg:mpegB:cicp:systems:auxiliary:depth`).
    case depth
    /// An HDR gain map (Apple's `urn:com:apple:photo:2020:aux:hdrgainmap`).
    case hdrGainMap
    /// A semantic matte (Apple's portrait mattes: skin, hair, teeth, glasses, sky).
    case matte
    /// Another auxiliary image.
    case other

    /// The kind of an auxiliary image of type `urn`.
    public init(auxiliaryType urn: String) {
        switch urn {
        case "urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:avc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha":
            self = .alpha
        case "urn:mpeg:hevc:2015:auxid:2", "urn:mpeg:avc:2015:auxid:2", "urn:mpeg:mpegB:cicp:systems:auxiliary:depth":
            self = .depth
        case HEIFAuxiliaryKind.appleHDRGainMapType: self = .hdrGainMap
        default: self = urn.hasPrefix("urn:com:apple:photo:") && urn.contains("matte") ? .matte : .other
        }
    }

    /// The auxiliary type of Apple's HDR gain map.
    public static let appleHDRGainMapType = "urn:com:apple:photo:2020:aux:hdrgainmap"
}

/// A metadata item attached to a HEIF image (Exif, XMP or another).
public struct HEIFMetadataBlock: Hashable, Sendable, Codable {
    /// The item type (`Exif`, `mime` …).
    public var type: String
    /// The content type of a `mime` item (`application/rdf+xml` for XMP).
    public var contentType: String?
    /// The size of the item's data in bytes.
    public var byteCount: Int
}

/// An `nclx` colour description (ITU-T H.273 code points), as HEIF and video streams carry it.
public struct NCLXColorDescription: Hashable, Sendable, Codable, CustomStringConvertible {
    /// ColourPrimaries (1 = BT.709, 9 = BT.2020, 12 = Display P3 …).
    public var colorPrimaries: Int
    /// TransferCharacteristics (1 = BT.709, 13 = sRGB, 16 = PQ, 18 = HLG …).
    public var transferCharacteristics: Int
    /// MatrixCoefficients (1 = BT.709, 5 and 6 = BT.601, 9 = BT.2020 …).
    public var matrixCoefficients: Int
    /// Whether Y′CbCr uses the full code range (otherwise 16…235 for 8 bits).
    public var isFullRange: Bool

    /// Creates a description.
    public init(colorPrimaries: Int, transferCharacteristics: Int, matrixCoefficients: Int, isFullRange: Bool) {
        self.colorPrimaries = colorPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.isFullRange = isFullRange
    }

    /// Whether the transfer is SMPTE ST 2084 (PQ).
    public var isPQ: Bool { transferCharacteristics == 16 }
    /// Whether the transfer is ARIB STD-B67 (HLG).
    public var isHLG: Bool { transferCharacteristics == 18 }

    /// The brightest value a PQ or HLG image decodes to (linear light with the BT.2408 reference white, 203 cd/m²,
    /// as 1.0): 10000/203 for PQ, 1000/203 for HLG on its nominal 1000 cd/m² display; `nil` for SDR transfers.
    public var nominalPeak: Double? {
        isPQ ? 10000 / 203 : isHLG ? 1000 / 203 : nil
    }

    public var description: String {
        let primaries =
            [
                1: "BT.709", 4: "BT.470M", 5: "BT.470BG", 6: "BT.601", 7: "SMPTE 240M", 9: "BT.2020",
                11:
                    "DCI-P3", 12: "Display P3", 22: "EBU 3213",
            ][colorPrimaries] ?? "code \(colorPrimaries)"
        let transfer =
            [
                1: "BT.709", 4: "gamma 2.2", 5: "gamma 2.8", 6: "BT.601", 8: "linear", 13: "sRGB",
                14:
                    "BT.2020", 15: "BT.2020", 16: "PQ", 18: "HLG",
            ][transferCharacteristics] ?? "code \(transferCharacteristics)"
        let matrix =
            [0: "RGB", 1: "BT.709", 5: "BT.601", 6: "BT.601", 9: "BT.2020"][matrixCoefficients]
            ?? "code \(matrixCoefficients)"
        return "primaries \(primaries) (\(colorPrimaries)), transfer \(transfer) (\(transferCharacteristics)), "
            + "matrix \(matrix) (\(matrixCoefficients)), \(isFullRange ? "full" : "limited") range"
    }
}

/// How the values of a depth image relate to distance (the role of `AVDepthData`'s depth data type and ranges; HEVC's
/// depth representation information).
public struct DepthRepresentation: Hashable, Sendable, Codable {
    /// What the stored values are.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Values proportional to 1 / distance (inverse Z), uniformly quantised.
        case uniformInverseDepth
        /// Disparity (1 / distance, in the camera's disparity units), uniformly quantised — what iPhones store.
        case uniformDisparity
        /// Distance, uniformly quantised.
        case uniformDepth
        /// Disparity with a non-uniform quantisation model.
        case nonUniformDisparity
    }

    /// What the stored values are.
    public var kind: Kind
    /// The distance of the nearest plane, when given.
    public var zNear: Double?
    /// The distance of the farthest plane, when given.
    public var zFar: Double?
    /// The smallest disparity (the value stored as 0), when given.
    public var minimumDisparity: Double?
    /// The largest disparity (the value stored as the maximum code), when given.
    public var maximumDisparity: Double?
    /// The view disparities are measured against.
    public var disparityReferenceView: Int
}

/// Which image of a file a decode reads: the image itself, or one of its thumbnails or auxiliary images
/// (``DecodingOptions/component``).
public enum ImageComponent: Hashable, Sendable {
    /// The image itself.
    case main
    /// Its thumbnail at this position (0 = the first, see ``HEIFImageDescription/thumbnails``).
    case thumbnail(Int)
    /// Its depth or disparity map (gray).
    case depth
    /// Its HDR gain map (gray).
    case hdrGainMap
    /// The auxiliary image with this type URN.
    case auxiliary(String)
}
