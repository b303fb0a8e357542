import CLuxLibRaw
import LuxPixels

/// Camera makers' raw formats other than DNG — NEF, CR2, ARW, RAF, ORF, RW2, PEF, KDC and the rest of the more than
/// 1000 cameras LibRaw knows — read through LibRaw.
///
/// Only LibRaw's unpacking is used: the stored sensor values (a Bayer or X-Trans mosaic, or three colours per pixel
/// for cameras without a colour filter array), per-colour black levels and black patterns (LibRaw measures some from
/// the masked areas), the white level, the CFA layout, the camera matrix, the as-shot white balance, the
/// orientation, the active area, maker, model, lens and exposure data, and the largest embedded preview. They come
/// back as a ``RawImage`` in DNG's terms, which LuxRAW develops like any DNG. ``ImageFile/read(url:options:)``
/// picks this decoder by itself; DNG files stay on LuxCodecs' own decoder unless
/// ``DecodingOptions/decodesDNGWithLibRaw`` is set.
///
/// ```swift
/// let file = try ImageFile.read(url: URL(fileURLWithPath: "DSC_0001.NEF"))
/// let raw = file.rawImage!                     // .bayer16 mosaic, active area, black and white levels …
/// print(file.format, raw.make ?? "", raw.cfaPattern ?? "X-Trans", raw.storage)
/// ```
///
/// Each decode uses its own LibRaw instance (the thread-safe `libraw_r` build), so files decode in parallel. LibRaw's
/// allocations count against ``DecodingLimits/maxByteCount``, and the stored size is checked against the limits
/// before anything is unpacked. Data LibRaw cannot read is never filled with zeros: a stripped or cut-short file
/// throws ``CodecError/missingPixelData(what:reason:)``.
public enum CameraRaw {
    /// LibRaw's version number, such as "0.20.2".
    public static var libRawVersion: String { LibRawHandle.versionNumber }

    /// The number of camera models LibRaw knows.
    public static var supportedCameraCount: Int { Int(lux_libraw_camera_count()) }

    /// Decodes a camera raw (any format LibRaw reads, DNG included) held in memory.
    ///
    /// - Throws: ``CodecError/unsupported(what:reason:)`` for data LibRaw does not recognise,
    ///   ``CodecError/missingPixelData(what:reason:)`` for stripped or truncated files, ``CodecError/limitExceeded(what:value:limit:)``
    ///   beyond the decoding limits, and the other cases of ``CodecError`` for LibRaw's other errors.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    /// Reads the description of a camera raw (camera, sizes, CFA, levels, colour) without unpacking its data.
    ///
    /// - Throws: the errors of ``decode(_:options:)`` that LibRaw's identification can give.
    public static func properties(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError)
        -> RawProperties
    {
        try withBytes(of: bytes) { raw throws(CodecError) in try properties(raw, options: options) }
    }

    /// Whether LibRaw recognises the data as a raw it reads.
    static func identifies(_ raw: UnsafeRawBufferPointer) -> Bool {
        (try? LibRawHandle(raw, maxMemoryMB: 1)) != nil
    }

    static func properties(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> RawProperties
    {
        let handle = try open(raw, options: options)
        return RawProperties(libRaw: handle, exif: TIFFCameraRaw.exif(raw))
    }

    /// Decodes through LibRaw; `format` is what the returned file says it was read from.
    static func decode(_ raw: UnsafeRawBufferPointer, options: DecodingOptions, format: ImageFormat = .cameraRaw)
        throws(CodecError) -> ImageFile
    {
        let options = options.budgeted()
        let handle = try open(raw, options: options)
        let info = handle.info
        let what = describe(handle, options)
        let isCFA = info.filters != 0
        let storedBytes = isCFA ? 2 : 8
        try options.limits.check(
            width: Int(info.raw_width), height: Int(info.raw_height), bytesPerPixel: storedBytes, what: what)
        if info.data_offset >= raw.count || (info.data_size > 0 && info.data_offset + info.data_size > raw.count) {
            throw .missingPixelData(
                what: what,
                reason:
                    "its raw data (\(info.data_size > 0 ? "\(info.data_size) bytes " : "")at byte \(info.data_offset)) "
                    + "lies beyond the end of the \(raw.count)-byte file (a stripped or truncated file)")
        }
        // LibRaw's buffer (with the 8 spare rows it allocates); a mosaic is lent from it, colour data is copied.
        let libRawBytes = Int(info.raw_width) * (Int(info.raw_height) + 8) * storedBytes
        let available = options.remainingBytes
        try options.reserve(libRawBytes, for: "\(what) (LibRaw)")
        if !isCFA { try options.reserve(Int(info.raw_width) * Int(info.raw_height) * storedBytes, for: what) }
        let dataError: Int?
        do { dataError = try handle.unpack() } catch {
            throw codecError(error, what: what, size: raw.count, memory: (libRawBytes, available))
        }
        if let offset = dataError {
            throw .missingPixelData(
                what: what,
                reason: offset < 0
                    ? "the \(raw.count)-byte file ends before its raw data does (a stripped or truncated file)"
                    : "LibRaw could not read the raw data near byte \(offset) of the \(raw.count)-byte file "
                        + "(stripped, truncated or damaged)")
        }
        // Known only now that LibRaw found the data all there.
        guard info.fuji_width == 0 else {
            throw .unsupported(
                what: "\(what): Fujifilm SuperCCD data", reason: "its 45°-rotated photosite layout is not developed")
        }
        var props = RawProperties(libRaw: handle, exif: TIFFCameraRaw.exif(raw))
        let pixels = try sensorData(handle, props, what: what)
        props.previews = try previews(handle, options: options, what: what)
        var file = ImageFile(raw: RawImage(pixels: pixels, properties: props))
        file.format = format
        return file
    }

    /// The stored data as a buffer: a `.bayer16` or `.xTrans16` mosaic (`.gray16` for other CFAs), `.rgba16` for
    /// colour data, or the float equivalents.
    ///
    /// A mosaic is lent from LibRaw's buffer, which the returned pixels keep alive with the LibRaw instance (a copy
    /// cost a whole-image write into fresh, page-faulting memory); colour data is copied out as RGBA.
    static func sensorData(_ handle: LibRawHandle, _ props: RawProperties, what: String) throws(CodecError)
        -> PixelBuffer
    {
        guard let layout = handle.layout else {
            throw .missingPixelData(what: what, reason: "LibRaw unpacked no sensor data")
        }
        let format: PixelFormat
        switch layout.kind {
        case Int32(LUX_LIBRAW_MOSAIC): format = props.storedPixelFormat
        case Int32(LUX_LIBRAW_FLOAT_MOSAIC): format = .grayFloat
        case Int32(LUX_LIBRAW_COLOR): format = .rgba16
        default: format = .rgbaFloat
        }
        let sampleBytes = format.bytesPerPixel()
        if format.channelCount == 1, let mosaic = handle.mosaic, props.width > 0, props.height > 0,
            mosaic.bytesPerRow >= props.width * sampleBytes, mosaic.bytesPerRow % sampleBytes == 0,
            Int(bitPattern: mosaic.base) % sampleBytes == 0
        {
            return PixelBuffer(
                borrowing: mosaic.base, byteCount: mosaic.bytesPerRow * props.height, bytesPerRow: mosaic.bytesPerRow,
                width: props.width, height: props.height, format: format, owner: LibRawPixelsOwner(handle))
        }
        let out = PixelBuffer(width: props.width, height: props.height, format: format)
        let plane = out.unsafeSharedMutablePlane()
        let copied = handle.copyData(into: plane.baseAddress, rowBytes: plane.bytesPerRow)
        withExtendedLifetime(out) {}
        guard copied else { throw .missingPixelData(what: what, reason: "LibRaw unpacked no sensor data") }
        return out
    }

    /// The thumbnail LibRaw picks (the largest embedded preview it knows), when it is a JPEG or 8-bit RGB.
    static func previews(_ handle: LibRawHandle, options: DecodingOptions, what: String) throws(CodecError)
        -> [EmbeddedPreview]
    {
        let info = handle.info
        let encoding: EmbeddedPreview.Encoding
        switch info.thumb_format {
        case 1: encoding = .jpeg
        case 2: encoding = .uncompressed
        default: return []
        }
        try options.reserve(Int(info.thumb_length), for: "\(what) preview")
        guard let data = handle.thumbnail() else { return [] }
        return [
            EmbeddedPreview(
                width: Int(info.thumb_width), height: Int(info.thumb_height), encoding: encoding, newSubfileType: 1,
                samplesPerPixel: 3, bitsPerSample: 8, previewColorSpace: nil, byteRanges: [], data: data)
        ]
    }

    /// Opens `raw` in LibRaw with its raw buffer capped by the decode's remaining budget.
    ///
    /// When LibRaw does not recognise the data, the file's own TIFF structure says what is wrong: a camera raw whose
    /// raw image directory is missing or lies past the end of the file has no pixel data; any other is a camera or
    /// format LibRaw does not support.
    static func open(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> LibRawHandle {
        let name = options.sourceName ?? "the data"
        do {
            return try LibRawHandle(raw, maxMemoryMB: max(1, options.remainingBytes >> 20))
        } catch {
            let camera = TIFFCameraRaw.camera(raw)
            let what = "\(name) (\(camera.map { "\($0) raw file" } ?? "camera raw file"))"
            if error.code == -2 || error.code == -100009 || error.code == -100008,
                let reason = TIFFCameraRaw.missingDataReason(raw)
            {
                throw .missingPixelData(what: what, reason: reason)
            }
            throw codecError(error, what: what, size: raw.count)
        }
    }

    /// "NAME (Make Model raw file)".
    static func describe(_ handle: LibRawHandle, _ options: DecodingOptions) -> String {
        let make = lux_libraw_info.text(handle.info.make)
        let model = lux_libraw_info.text(handle.info.model)
        let camera = [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        return "\(options.sourceName ?? "the data") (\(camera.isEmpty ? "camera" : camera) raw file)"
    }

    /// The ``CodecError`` for a LibRaw error code.
    ///
    /// - Parameters:
    ///   - size: The file's size in bytes.
    ///   - memory: The bytes LibRaw's buffer needed and the decode had left, for memory errors.
    static func codecError(_ status: LibRawStatus, what: String, size: Int, memory: (needed: Int, limit: Int) = (0, 0))
        -> CodecError
    {
        let libRaw = "LibRaw \(LibRawHandle.versionNumber)"
        switch status.code {
        case -2:  // LIBRAW_FILE_UNSUPPORTED
            return .unsupported(
                what: what, reason: "not supported by \(libRaw) (\(CameraRaw.supportedCameraCount) cameras known)")
        case -3:  // LIBRAW_REQUEST_FOR_NONEXISTENT_IMAGE
            return .malformed(what: what, offset: 0, reason: "\(libRaw): the requested image is not in the file")
        case -8:  // LIBRAW_NOT_IMPLEMENTED
            return .unsupported(what: what, reason: "\(libRaw) does not implement this raw data's decoder")
        case -100007, -100012, -100013:  // LIBRAW_UNSUFFICIENT_MEMORY, LIBRAW_TOO_BIG, LIBRAW_MEMPOOL_OVERFLOW
            return .limitExceeded(
                what: "\(what): LibRaw's memory (\(status.message))", value: memory.needed, limit: memory.limit)
        case -100008:  // LIBRAW_DATA_ERROR
            return .malformed(what: "\(what) raw data", offset: 0, reason: "\(libRaw): \(status.message)")
        case -100009:  // LIBRAW_IO_ERROR: LibRaw read past the end of the data
            return .missingPixelData(
                what: what, reason: "\(libRaw) read past the end of the \(size)-byte file (a truncated file)")
        case -100011:  // LIBRAW_BAD_CROP
            return .malformed(what: what, offset: 0, reason: "\(libRaw): the crop lies outside the image")
        case Int32(LUX_LIBRAW_PROBE_CRASHED):
            return .malformed(
                what: what, offset: 0,
                reason: "\(libRaw) crashed reading its header (a damaged file, or a defect of that LibRaw release)")
        case Int32(LUX_LIBRAW_PROBE_TIMED_OUT):
            return .malformed(
                what: what, offset: 0,
                reason:
                    "\(libRaw) did not finish reading its header in \(LibRawHandle.probeTimeoutMilliseconds / 1000) s")
        default:  // LIBRAW_UNSPECIFIED_ERROR, OUT_OF_ORDER_CALL, INPUT_CLOSED, CANCELLED_BY_CALLBACK, …
            return .library(name: "LibRaw", message: "\(what): \(status.message) (code \(status.code))")
        }
    }
}
