import ArgumentParser
import Foundation
import Lux

/// Raw interleaved RGB on disk, read region by region with `pread` (thread-safe, no whole-image buffer).
final class RawRGBFile: ImageProvider, @unchecked Sendable {
    // @unchecked: the descriptor is only read with pread, which is safe from several threads.
    let width: Int
    let height: Int
    let format = PixelFormat.rgba8
    let colorSpace: ColorSpace? = .sRGB
    let descriptor: Int32

    init(path: String, width: Int, height: Int) throws {
        self.width = width
        self.height = height
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ValidationError("cannot open \(path)") }
    }

    deinit { close(descriptor) }

    func provide(_ output: ImageProcessorOutput) throws {
        let x0 = Int(output.region.minX)
        let y0 = Int(output.region.minY)
        let w = output.width
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * w)
        defer { line.deallocate() }
        for j in 0..<output.height {
            let offset = off_t(3 * ((y0 + j) * width + x0))
            guard pread(descriptor, line, 3 * w, offset) == 3 * w else { throw ValidationError("short read") }
            let d = output.row(j, as: UInt8.self)
            for i in 0..<w {
                d[4 * i] = line[3 * i]
                d[4 * i + 1] = line[3 * i + 1]
                d[4 * i + 2] = line[3 * i + 2]
                d[4 * i + 3] = 255
            }
        }
    }
}
