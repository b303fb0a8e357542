import CLuxLibRaw

/// One LibRaw instance over bytes that outlive it: identify on creation, then unpack, copy out and read the thumbnail.
///
/// Each decode makes its own, so decodes of different files run in parallel (LibRaw's thread-safe build).
final class LibRawHandle {
    /// What LibRaw identified (levels refreshed by ``unpack()``).
    private(set) var info: lux_libraw_info
    private let handle: OpaquePointer

    /// LibRaw's version, such as "0.20.2-Release".
    static let version: String = String(cString: lux_libraw_version())

    /// LibRaw's version number alone, such as "0.20.2".
    static let versionNumber: String = String(version.prefix { $0 != "-" })

    /// How long LibRaw may take to read a header in the probe process before the file is refused.
    static let probeTimeoutMilliseconds: Int32 = 10_000

    /// Identifies `bytes`, letting LibRaw's raw buffer take at most `maxMemoryMB` megabytes.
    ///
    /// LibRaw first reads the header in a child process (``lux_libraw_probe``): LibRaw 0.20 aborts the whole process
    /// on some damaged files (a Hasselblad model name longer than its buffer, found by fuzzing), which must become
    /// an error for that file, not the end of the caller.
    ///
    /// - Throws: the LibRaw error code when LibRaw does not recognise the data or cannot read its header, or the
    ///   probe's code when LibRaw crashed or hung on it.
    init(_ bytes: UnsafeRawBufferPointer, maxMemoryMB: Int) throws(LibRawStatus) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw LibRawStatus(code: -2) }
        let probe = lux_libraw_probe(base, bytes.count, UInt32(clamping: maxMemoryMB), Self.probeTimeoutMilliseconds)
        guard probe == 0 || probe == Int32(LUX_LIBRAW_PROBE_UNAVAILABLE) else { throw LibRawStatus(code: probe) }
        var info = lux_libraw_info()
        var error: Int32 = 0
        guard let h = lux_libraw_open(base, bytes.count, UInt32(clamping: maxMemoryMB), &info, &error) else {
            throw LibRawStatus(code: error)
        }
        handle = h
        self.info = info
    }

    deinit { lux_libraw_close(handle) }

    /// Unpacks the sensor data.
    ///
    /// - Returns: The offset of the first damaged data LibRaw met (−1 for the end of the data), or `nil`.
    /// - Throws: the LibRaw error code.
    func unpack() throws(LibRawStatus) -> Int? {
        var dataError: Int64 = -2
        let status = lux_libraw_unpack(handle, &info, &dataError)
        guard status == 0 else { throw LibRawStatus(code: status) }
        return dataError == -2 ? nil : Int(dataError)
    }

    /// The unpacked data's layout and samples per pixel (`nil` before unpacking).
    var layout: (kind: Int32, samplesPerPixel: Int)? {
        var spp: Int32 = 0
        let kind = lux_libraw_data_layout(handle, &spp)
        return kind == 0 ? nil : (kind, Int(spp))
    }

    /// Copies the unpacked data into rows `rowBytes` apart, colour data as RGBA.
    func copyData(into base: UnsafeMutableRawPointer, rowBytes: Int) -> Bool {
        lux_libraw_copy_data(handle, base, rowBytes) == 0
    }

    /// The unpacked one-sample mosaic in LibRaw's own buffer and the bytes between its rows (`nil` for colour data),
    /// valid while the handle lives.
    var mosaic: (base: UnsafeRawPointer, bytesPerRow: Int)? {
        var rowBytes = 0
        guard let base = lux_libraw_mosaic(handle, &rowBytes) else { return nil }
        return (base, rowBytes)
    }

    /// The repeating black pattern, row by row (empty without one).
    var blackPattern: [UInt32] {
        let capacity = Int(info.black_rows * info.black_cols)
        guard capacity > 0 else { return [] }
        var values = [UInt32](repeating: 0, count: capacity)
        let n = values.withUnsafeMutableBufferPointer { lux_libraw_black_pattern(handle, $0.baseAddress, capacity) }
        return n == capacity ? values : []
    }

    /// Loads the thumbnail and returns its bytes, or `nil` when the file has none LibRaw can read.
    func thumbnail() -> [UInt8]? {
        guard lux_libraw_unpack_thumbnail(handle) == 0 else { return nil }
        var length = 0
        guard let bytes = lux_libraw_thumbnail(handle, &length), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}

/// Keeps a LibRaw instance, and with it the mosaic it unpacked, alive for the pixel buffers that lend that mosaic.
///
/// `@unchecked Sendable`: the handle is only closed by `deinit`; lent pixels are read-only (a buffer over them copies
/// before writing) and nothing else calls into the instance once it is handed over.
final class LibRawPixelsOwner: @unchecked Sendable {
    let handle: LibRawHandle

    init(_ handle: LibRawHandle) { self.handle = handle }
}

/// A LibRaw return code (`LibRaw_errors`).
struct LibRawStatus: Error {
    /// The code, such as −2 (unsupported file), −100008 (data error) or −100009 (input/output error).
    var code: Int32

    /// LibRaw's text for the code.
    var message: String { String(cString: lux_libraw_strerror(code)) }
}

extension lux_libraw_info {
    /// The text of a fixed-size C character array field.
    static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { bytes in
            let chars = bytes.prefix { $0 != 0 }
            return String(decoding: chars, as: UTF8.self).trimming(" ")
        }
    }
}
