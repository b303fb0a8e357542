import ArgumentParser
import CLuxKernels
import Foundation
import Lux

/// Raw interleaved RGB on disk, memory-mapped and read region by region (thread-safe, no whole-image buffer: pages
/// come from the page cache as rows are read).
final class RawRGBFile: ImageProvider, @unchecked Sendable {
    // @unchecked: the mapping is read-only.
    let width: Int
    let height: Int
    let format = PixelFormat.rgba8
    let colorSpace: ColorSpace? = .sRGB
    let isOpaque = true
    private let bytes: UnsafeRawPointer
    private let length: Int

    /// Maps `path`, which must hold exactly `width`×`height` RGB pixels.
    init(path: String, width: Int, height: Int) throws {
        self.width = width
        self.height = height
        length = 3 * width * height
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ValidationError("cannot open \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) == length else {
            throw ValidationError("\(path) is not \(width)×\(height) RGB")
        }
        guard let p = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), p != MAP_FAILED else {
            throw ValidationError("cannot map \(path)")
        }
        bytes = UnsafeRawPointer(p)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes), length) }

    func provide(_ output: ImageProcessorOutput) throws {
        read(x: Int(output.region.minX), y: Int(output.region.minY), width: output.width, height: output.height) {
            output.row($0, as: UInt8.self)
        }
    }

    /// Reads `width`×`height` pixels at (`x`, `y`) as opaque RGBA8, row `j` into `row(j)`.
    func read(x x0: Int, y y0: Int, width w: Int, height h: Int, into row: (Int) -> UnsafeMutablePointer<UInt8>) {
        for j in 0..<h {
            lux_rgb8_to_rgba8(bytes.assumingMemoryBound(to: UInt8.self) + 3 * ((y0 + j) * width + x0), row(j), w)
        }
    }
}
