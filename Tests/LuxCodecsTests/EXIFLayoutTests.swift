import LuxCodecs
import Testing

@Suite struct EXIFLayoutTests {
    /// The value of the LONG entry `tag` in the little-endian TIFF directory at the start of `bytes`'s IFD0.
    static func pointer(_ tag: UInt16, in bytes: [UInt8]) -> Int? {
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        let ifd = u32(4)
        for k in 0..<u16(ifd) where u16(ifd + 2 + 12 * k) == Int(tag) { return u32(ifd + 2 + 12 * k + 8) }
        return nil
    }

    @Test("sub-directories are laid out in tag order, so the same metadata gives the same bytes in every process")
    func subdirectoriesInTagOrder() throws {
        var exif = EXIF()
        exif.make = "Lux"
        exif.exposureTime = Rational(1, 60)
        exif.gps = GPSInfo(latitude: 48.85, longitude: 2.35, altitude: 35)
        let bytes = exif.tiffBytes()
        #expect(Array(bytes.prefix(4)) == [0x49, 0x49, 42, 0])
        // ExifIFD (0x8769) sorts before GPS (0x8825): its directory must come first. Dictionary order used to
        // decide, which changed with each process's hash seed.
        let exifIFD = try #require(Self.pointer(0x8769, in: bytes))
        let gpsIFD = try #require(Self.pointer(0x8825, in: bytes))
        #expect(exifIFD < gpsIFD)
        #expect(exif.tiffBytes() == bytes)
    }
}
