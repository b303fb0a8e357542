/// Exif and GPS tag numbers (CIPA DC-008 §4.6).
enum EXIFTag {
    static let exposureTime: UInt16 = 0x829A
    static let fNumber: UInt16 = 0x829D
    static let exposureProgram: UInt16 = 0x8822
    static let photographicSensitivity: UInt16 = 0x8827
    static let sensitivityType: UInt16 = 0x8830
    static let isoSpeed: UInt16 = 0x8833
    static let exifVersion: UInt16 = 0x9000
    static let dateTimeOriginal: UInt16 = 0x9003
    static let dateTimeDigitized: UInt16 = 0x9004
    static let offsetTime: UInt16 = 0x9010
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let offsetTimeDigitized: UInt16 = 0x9012
    static let componentsConfiguration: UInt16 = 0x9101
    static let shutterSpeedValue: UInt16 = 0x9201
    static let apertureValue: UInt16 = 0x9202
    static let brightnessValue: UInt16 = 0x9203
    static let exposureBiasValue: UInt16 = 0x9204
    static let maxApertureValue: UInt16 = 0x9205
    static let meteringMode: UInt16 = 0x9207
    static let lightSource: UInt16 = 0x9208
    static let flash: UInt16 = 0x9209
    static let focalLength: UInt16 = 0x920A
    static let makerNote: UInt16 = 0x927C
    static let subSecTime: UInt16 = 0x9290
    static let subSecTimeOriginal: UInt16 = 0x9291
    static let subSecTimeDigitized: UInt16 = 0x9292
    static let flashpixVersion: UInt16 = 0xA000
    static let colorSpace: UInt16 = 0xA001
    static let pixelXDimension: UInt16 = 0xA002
    static let pixelYDimension: UInt16 = 0xA003
    static let sensingMethod: UInt16 = 0xA217
    static let sceneType: UInt16 = 0xA301
    static let exposureMode: UInt16 = 0xA402
    static let whiteBalance: UInt16 = 0xA403
    static let digitalZoomRatio: UInt16 = 0xA404
    static let focalLengthIn35mmFilm: UInt16 = 0xA405
    static let sceneCaptureType: UInt16 = 0xA406
    static let imageUniqueID: UInt16 = 0xA420
    static let cameraOwnerName: UInt16 = 0xA430
    static let bodySerialNumber: UInt16 = 0xA431
    static let lensSpecification: UInt16 = 0xA432
    static let lensMake: UInt16 = 0xA433
    static let lensModel: UInt16 = 0xA434
    static let lensSerialNumber: UInt16 = 0xA435

    static let gpsVersionID: UInt16 = 0
    static let gpsLatitudeRef: UInt16 = 1
    static let gpsLatitude: UInt16 = 2
    static let gpsLongitudeRef: UInt16 = 3
    static let gpsLongitude: UInt16 = 4
    static let gpsAltitudeRef: UInt16 = 5
    static let gpsAltitude: UInt16 = 6
    static let gpsTimeStamp: UInt16 = 7
    static let gpsImgDirectionRef: UInt16 = 16
    static let gpsImgDirection: UInt16 = 17
    static let gpsDateStamp: UInt16 = 29

    /// Exif-IFD tags with a typed property in ``EXIF`` (not kept as additional fields).
    static let typedExifTags: Set<UInt16> = [
        exposureTime, fNumber, exposureProgram, photographicSensitivity, sensitivityType, isoSpeed, exifVersion,
        dateTimeOriginal, dateTimeDigitized, offsetTime, offsetTimeOriginal, offsetTimeDigitized, shutterSpeedValue,
        apertureValue, brightnessValue, exposureBiasValue, maxApertureValue, meteringMode, lightSource, flash,
        focalLength, makerNote, subSecTime, subSecTimeOriginal, subSecTimeDigitized, colorSpace, pixelXDimension,
        pixelYDimension, sensingMethod, exposureMode, whiteBalance, digitalZoomRatio, focalLengthIn35mmFilm,
        sceneCaptureType, imageUniqueID, cameraOwnerName, bodySerialNumber, lensSpecification, lensMake, lensModel,
        lensSerialNumber, TIFFTag.interopIFD,
    ]

    /// IFD0 tags with a typed property in ``EXIF``.
    static let typedPrimaryTags: Set<UInt16> = [
        TIFFTag.imageDescription, TIFFTag.make, TIFFTag.model, TIFFTag.orientation, TIFFTag.software,
        TIFFTag.dateTime, TIFFTag.artist, TIFFTag.copyright,
    ]

    /// IFD0 tags that describe image structure or point elsewhere: never kept as Exif fields.
    static let structuralPrimaryTags: Set<UInt16> = [
        254, 255, 256, 257, 258, 259, 262, 266, 273, 277, 278, 279, 284, 317, 322, 323, 324, 325, 330, 338, 339,
        513, 514, 700, TIFFTag.exifIFD, TIFFTag.gpsIFD, TIFFTag.iccProfile, TIFFTag.interopIFD,
    ]

    static let typedGPSTags: Set<UInt16> = [
        gpsLatitudeRef, gpsLatitude, gpsLongitudeRef, gpsLongitude, gpsAltitudeRef, gpsAltitude, gpsTimeStamp,
        gpsImgDirectionRef, gpsImgDirection, gpsDateStamp,
    ]
}
