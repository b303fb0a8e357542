import FoundationEssentials
import LuxCodecs
import LuxColor
import LuxPixels
import LuxRender

/// Adapts an ``ImageRegionReader`` to the engine's provider protocol, widening gray to RGBA.
struct RegionReaderProvider: ImageProvider {
    let reader: ImageRegionReader
    let url: URL

    var width: Int { reader.width }
    var height: Int { reader.height }
    var colorSpace: ColorSpace? { reader.colorSpace }
    var isPremultiplied: Bool { reader.isPremultiplied }
    var isOpaque: Bool { reader.isOpaque }
    var identifier: String { "file \(url.path) \(reader.width)x\(reader.height) \(reader.pixelFormat)" }

    var format: PixelFormat {
        switch reader.pixelFormat {
        case .gray8: .rgba8
        case .gray16: .rgba16
        case .grayFloat: .rgbaFloat
        default: reader.pixelFormat
        }
    }

    func provide(_ output: ImageProcessorOutput) throws {
        let x = Int(output.region.minX)
        let y = Int(output.region.minY)
        let plane = MutableRawPlane(
            baseAddress: output.baseAddress, bytesPerRow: output.bytesPerRow, width: output.width,
            height: output.height)
        guard reader.pixelFormat != format else {
            try reader.read(x: x, y: y, width: output.width, height: output.height, into: plane)
            return
        }
        let gray = try reader.read(x: x, y: y, width: output.width, height: output.height)
        gray.withUnsafePlane { src in
            for r in 0..<output.height {
                switch reader.pixelFormat {
                case .gray8: Self.widen(src.row(r, as: UInt8.self), plane.row(r, as: UInt8.self), output.width, .max)
                case .gray16:
                    Self.widen(src.row(r, as: UInt16.self), plane.row(r, as: UInt16.self), output.width, .max)
                default: Self.widen(src.row(r, as: Float.self), plane.row(r, as: Float.self), output.width, 1)
                }
            }
        }
    }

    /// Gray samples as opaque RGBA.
    static func widen<T>(_ s: UnsafePointer<T>, _ d: UnsafeMutablePointer<T>, _ count: Int, _ opaque: T) {
        for i in 0..<count {
            let v = s[i]
            d[4 * i] = v
            d[4 * i + 1] = v
            d[4 * i + 2] = v
            d[4 * i + 3] = opaque
        }
    }
}
