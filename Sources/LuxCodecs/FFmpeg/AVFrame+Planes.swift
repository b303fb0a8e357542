internal import CAVUtil
internal import CLuxMediaShims

extension UnsafeMutablePointer where Pointee == AVFrame {
    /// The address of plane `i`.
    func plane(_ i: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafeBytes(of: pointee.data) {
            $0.load(
                fromByteOffset: i * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                as: UnsafeMutablePointer<UInt8>?.self)
        }
    }

    /// The bytes per row of plane `i`.
    func bytesPerRow(_ i: Int) -> Int {
        Int(withUnsafeBytes(of: pointee.linesize) { $0.load(fromByteOffset: i * 4, as: Int32.self) })
    }

    /// The first four planes and their strides, as swscale takes them.
    var planes: (pointers: [UnsafePointer<UInt8>?], strides: [Int32]) {
        ((0..<4).map { plane($0).map { UnsafePointer($0) } }, (0..<4).map { Int32(bytesPerRow($0)) })
    }

    /// The pixel format.
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointee.format) }
}
