internal import CHEIF

/// A HEIF file opened by libheif: its items parsed, nothing decoded.
///
/// The context reads the caller's bytes in place (`heif_context_read_from_memory_without_copy`), so they must outlive
/// it: ``init(_:limits:threads:)`` takes the bytes, and the caller keeps them alive while the context and its handles
/// are used.
final class HEIFContext {
    let context: OpaquePointer
    /// The file's size in bytes.
    let fileSize: Int
    /// The limits the file was opened with.
    let limits: DecodingLimits

    /// Opens the file in `bytes` (kept, not copied).
    ///
    /// libheif refuses an image wider or higher than `limits.maxDimension` while parsing, before it allocates
    /// anything for it.
    ///
    /// - Throws: ``CodecError`` for a file libheif cannot parse.
    init(_ bytes: UnsafeRawBufferPointer, limits: DecodingLimits, threads: Int) throws(CodecError) {
        HEIFLibrary.initialize()
        guard let context = heif_context_alloc() else {
            throw .library(name: "libheif", message: "cannot allocate a context")
        }
        self.context = context
        fileSize = bytes.count
        self.limits = limits
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: limits.maxDimension))
        heif_context_set_max_decoding_threads(context, Int32(clamping: max(1, threads)))
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .truncated(what: "HEIF file (empty)", offset: 0)
        }
        do throws(CodecError) {
            try heifCall("HEIF file", fileSize: fileSize, limit: limits.maxDimension) {
                heif_context_read_from_memory_without_copy(context, base, bytes.count, nil)
            }
        } catch {
            // A file that is only an image sequence (brand msf1, no still image item): libheif 1.15 reads no tracks.
            let brands = Self.brands(bytes)
            guard case .unsupported = error, brands.main == "msf1", !brands.compatible.contains("mif1") else {
                throw error
            }
            throw .unsupported(
                what: "HEIF image sequence (brand msf1) with no still image",
                reason: "libheif 1.15 reads still images (items), not sequence tracks")
        }
    }

    deinit { heif_context_free(context) }

    /// The item IDs of the top-level images: the primary first, then the others in file order (as `heif-info`
    /// lists them).
    var topLevelImageIDs: [heif_item_id] {
        let count = Int(heif_context_get_number_of_top_level_images(context))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let got = Int(heif_context_get_list_of_top_level_image_IDs(context, &ids, Int32(count)))
        var primary: heif_item_id = 0
        _ = heif_context_get_primary_image_ID(context, &primary)
        let listed = Array(ids.prefix(got))
        return listed.filter { $0 == primary } + listed.filter { $0 != primary }
    }

    /// The top-level image at `index` (0 = the primary).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when there is no such image.
    func image(at index: Int) throws(CodecError) -> HEIFImageHandle {
        let ids = topLevelImageIDs
        guard ids.indices.contains(index) else {
            throw .invalidArgument(
                "the HEIF file has \(ids.count) image\(ids.count == 1 ? "" : "s") (0…\(ids.count - 1)), not \(index)")
        }
        var handle: OpaquePointer?
        try heifCall("HEIF image \(index)", fileSize: fileSize) {
            heif_context_get_image_handle(context, ids[index], &handle)
        }
        guard let handle else { throw .library(name: "libheif", message: "no handle for image \(index)") }
        return HEIFImageHandle(handle, id: ids[index], context: self, role: index == 0 ? .primary : .image(index))
    }

    /// The file's main brand and compatible brands (four-character codes).
    static func brands(_ bytes: UnsafeRawBufferPointer) -> (main: String, compatible: [String]) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= 12 else {
            return ("", [])
        }
        let main = fourCC(heif_read_main_brand(base, Int32(clamping: bytes.count)))
        var list: UnsafeMutablePointer<heif_brand2>?
        var count: Int32 = 0
        let error = heif_list_compatible_brands(base, Int32(clamping: bytes.count), &list, &count)
        guard error.code == heif_error_Ok, let list else { return (main, []) }
        defer { heif_free_list_of_compatible_brands(list) }
        return (main, (0..<Int(count)).map { fourCC(list[$0]) })
    }

    /// The text of a four-character code stored big-endian in an integer.
    static func fourCC(_ code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }
}

/// One-time libheif initialisation (its plugins).
enum HEIFLibrary {
    private static let initialized: Bool = {
        heif_init(nil)
        return true
    }()

    /// Initialises libheif once per process.
    static func initialize() { _ = initialized }
}
