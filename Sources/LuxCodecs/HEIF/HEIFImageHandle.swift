internal import CHEIF
import LuxColor

/// A top-level, thumbnail or auxiliary image of an open ``HEIFContext``: its properties and metadata, nothing decoded.
final class HEIFImageHandle {
    /// What the image is to the file.
    enum Role {
        case primary
        case image(Int)
        case thumbnail(Int)
        case auxiliary(String)

        var name: String {
            switch self {
            case .primary: "HEIF primary image"
            case .image(let i): "HEIF image \(i)"
            case .thumbnail(let i): "HEIF thumbnail \(i)"
            case .auxiliary(let type): "HEIF auxiliary image \(type)"
            }
        }
    }

    let handle: OpaquePointer
    /// The context the handle belongs to (kept alive with it).
    let context: HEIFContext
    let role: Role
    /// The HEIF item ID.
    let itemID: UInt32

    init(_ handle: OpaquePointer, id: heif_item_id, context: HEIFContext, role: Role) {
        self.handle = handle
        self.itemID = id
        self.context = context
        self.role = role
    }

    deinit { heif_image_handle_release(handle) }
    /// The displayed width (after `clap` and `irot`).
    var width: Int { Int(heif_image_handle_get_width(handle)) }
    /// The displayed height.
    var height: Int { Int(heif_image_handle_get_height(handle)) }
    var storedWidth: Int { Int(heif_image_handle_get_ispe_width(handle)) }
    var storedHeight: Int { Int(heif_image_handle_get_ispe_height(handle)) }
    /// Bits per luma sample (8 when the file does not say).
    var bitDepth: Int {
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        return bits > 0 ? bits : 8
    }
    var chromaBitDepth: Int {
        let bits = Int(heif_image_handle_get_chroma_bits_per_pixel(handle))
        return bits > 0 ? bits : bitDepth
    }
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }
    var isPremultiplied: Bool { heif_image_handle_is_premultiplied_alpha(handle) != 0 }

    /// The embedded ICC profile (`prof` or `rICC`).
    var iccProfile: [UInt8]? {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let error = bytes.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
        return error.code == heif_error_Ok ? bytes : nil
    }

    /// The `nclx` colour description, when the file has one.
    var nclx: HEIFNCLX? {
        var profile: UnsafeMutablePointer<heif_color_profile_nclx>?
        let error = heif_image_handle_get_nclx_color_profile(handle, &profile)
        guard error.code == heif_error_Ok, let profile else { return nil }
        defer { heif_nclx_color_profile_free(profile) }
        return HEIFNCLX(profile.pointee)
    }

    /// The metadata items (Exif, XMP, …) and their bytes.
    var metadataBlocks: [(block: HEIFMetadataBlock, id: heif_item_id)] {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, nil))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let got = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, Int32(count)))
        return ids.prefix(got).map { id in
            let type = heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
            let content = heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) }
            let block = HEIFMetadataBlock(
                type: type, contentType: content?.isEmpty == false ? content : nil,
                byteCount: heif_image_handle_get_metadata_size(handle, id))
            return (block, id)
        }
    }

    /// The bytes of metadata item `id`.
    func metadata(_ id: heif_item_id) throws(CodecError) -> [UInt8] {
        let size = heif_image_handle_get_metadata_size(handle, id)
        guard size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: size)
        try heifCall("\(role.name) metadata item \(id)", fileSize: context.fileSize) {
            bytes.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
        }
        return bytes
    }

    /// The Exif and XMP of the image (unreadable blocks are left out).
    var metadata: ImageMetadata {
        var m = ImageMetadata()
        for (block, id) in metadataBlocks {
            guard let bytes = try? metadata(id) else { continue }
            if block.type == "Exif", let tiff = Self.exifTIFF(bytes), let exif = try? EXIF(tiffBytes: tiff) {
                m.exif = exif
            } else if block.type == "mime", block.contentType == "application/rdf+xml", m.xmp == nil {
                m.xmp = bytes
            }
        }
        m.iccProfile = iccProfile
        return m
    }

    /// The TIFF structure inside a HEIF Exif item: a 4-byte big-endian offset to the TIFF header, then (after any
    /// `Exif\0\0` prefix the offset skips) the TIFF bytes.
    static func exifTIFF(_ item: [UInt8]) -> [UInt8]? {
        guard item.count > 4 else { return nil }
        let offset = item.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard offset >= 0, offset <= item.count - 4 - 8 else { return nil }
        let tiff = Array(item[(4 + offset)...])
        return tiff.starts(with: [0x4D, 0x4D]) || tiff.starts(with: [0x49, 0x49]) ? tiff : nil
    }

    /// The thumbnails, in file order.
    func thumbnails() -> [HEIFImageHandle] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let got = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        return ids.prefix(got).enumerated().compactMap { i, id -> HEIFImageHandle? in
            var thumb: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumb).code == heif_error_Ok, let thumb else {
                return nil
            }
            return HEIFImageHandle(thumb, id: id, context: context, role: .thumbnail(i))
        }
    }

    /// The auxiliary images (alpha and depth included), in file order, with their type URNs.
    func auxiliaryImages() -> [(type: String, handle: HEIFImageHandle)] {
        let count = Int(heif_image_handle_get_number_of_auxiliary_images(handle, 0))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let got = Int(heif_image_handle_get_list_of_auxiliary_image_IDs(handle, 0, &ids, Int32(count)))
        return ids.prefix(got).compactMap { id -> (type: String, handle: HEIFImageHandle)? in
            var aux: OpaquePointer?
            guard heif_image_handle_get_auxiliary_image_handle(handle, id, &aux).code == heif_error_Ok, let aux else {
                return nil
            }
            var typeName: UnsafePointer<CChar>?
            var type = ""
            if heif_image_handle_get_auxiliary_type(aux, &typeName).code == heif_error_Ok, let name = typeName {
                type = String(cString: name)
                heif_image_handle_free_auxiliary_types(aux, &typeName)
            }
            return (type, HEIFImageHandle(aux, id: id, context: context, role: .auxiliary(type)))
        }
    }

    /// How the depth image's values relate to distance, when the image has a depth image.
    var depthRepresentation: DepthRepresentation? {
        var id: heif_item_id = 0
        guard heif_image_handle_get_list_of_depth_image_IDs(handle, &id, 1) == 1 else { return nil }
        var info: UnsafePointer<heif_depth_representation_info>?
        guard heif_image_handle_get_depth_image_representation_info(handle, id, &info) != 0, let info else {
            return nil
        }
        defer { heif_depth_representation_info_free(info) }
        let i = info.pointee
        let kind: DepthRepresentation.Kind =
            switch i.depth_representation_type {
            case heif_depth_representation_type_uniform_inverse_Z: .uniformInverseDepth
            case heif_depth_representation_type_uniform_Z: .uniformDepth
            case heif_depth_representation_type_nonuniform_disparity: .nonUniformDisparity
            default: .uniformDisparity
            }
        return DepthRepresentation(
            kind: kind, zNear: i.has_z_near != 0 ? i.z_near : nil, zFar: i.has_z_far != 0 ? i.z_far : nil,
            minimumDisparity: i.has_d_min != 0 ? i.d_min : nil, maximumDisparity: i.has_d_max != 0 ? i.d_max : nil,
            disparityReferenceView: Int(i.disparity_reference_view))
    }

    /// The component `component` of this image: itself, a thumbnail or an auxiliary image.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when the image has no such component.
    func component(_ component: ImageComponent) throws(CodecError) -> HEIFImageHandle {
        switch component {
        case .main: return self
        case .thumbnail(let i):
            let thumbs = thumbnails()
            guard thumbs.indices.contains(i) else {
                throw .invalidArgument(
                    "\(role.name) has \(thumbs.count) thumbnail\(thumbs.count == 1 ? "" : "s"), not \(i + 1)")
            }
            return thumbs[i]
        case .depth, .hdrGainMap, .auxiliary:
            let all = auxiliaryImages()
            let found = all.first { aux in
                switch component {
                case .depth: HEIFAuxiliaryKind(auxiliaryType: aux.type) == .depth
                case .hdrGainMap: HEIFAuxiliaryKind(auxiliaryType: aux.type) == .hdrGainMap
                case .auxiliary(let urn): aux.type == urn
                default: false
                }
            }
            guard let found else {
                let types = all.map(\.type)
                throw .invalidArgument(
                    "\(role.name) has no \(component) image"
                        + (types.isEmpty
                            ? " (it has no auxiliary images)" : " (it has \(types.joined(separator: ", ")))"))
            }
            return found.handle
        }
    }

    /// The description of this image for ``HEIFContents``.
    func describe(index: Int) -> HEIFImageDescription {
        let icc = iccProfile
        let auxiliary = auxiliaryImages().map { type, aux in
            HEIFAuxiliaryImage(
                itemID: aux.itemID, type: type, kind: HEIFAuxiliaryKind(auxiliaryType: type), width: aux.width,
                height: aux.height, bitDepth: aux.bitDepth)
        }
        let thumbs = thumbnails().map { t in
            HEIFAuxiliaryImage(
                itemID: t.itemID, type: "thumbnail", kind: .thumbnail, width: t.width, height: t.height,
                bitDepth: t.bitDepth)
        }
        return HEIFImageDescription(
            index: index, itemID: itemID, isPrimary: heif_image_handle_is_primary_image(handle) != 0, width: width,
            height: height, storedWidth: storedWidth, storedHeight: storedHeight, bitDepth: bitDepth,
            chromaBitDepth: chromaBitDepth, hasAlpha: hasAlpha,
            iccProfileDescription: icc.flatMap { ColorProfiles.description(ofProfile: $0) }, nclx: nclx?.description,
            thumbnails: thumbs, auxiliaryImages: auxiliary, depth: depthRepresentation,
            metadata: metadataBlocks.map(\.block))
    }
}
