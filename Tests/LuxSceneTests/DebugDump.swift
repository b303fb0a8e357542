import Testing
import LuxPixels
@testable import LuxScene

/// Writes ground-truth renders as PPM when LUX_DUMP is set (for eyeballing; not an assertion).
@Suite struct DebugDump {
    @Test func dump() throws {
        guard let dir = getenvString("LUX_DUMP") else { return }
        for name in Scene.catalogNames {
            let s = try Scene.named(name)
            let img = try s.groundTruth(width: 800)
            writePPM(img, path: "\(dir)/\(name).ppm")
        }
    }
}

import Glibc

func getenvString(_ k: String) -> String? { getenv(k).map { String(cString: $0) } }

func writePPM(_ b: PixelBuffer, path: String) {
    var bytes = Array("P6\n\(b.width) \(b.height)\n255\n".utf8)
    for y in 0..<b.height {
        for x in 0..<b.width {
            let p = b.pixel(x: x, y: y)
            for c in 0..<3 { bytes.append(UInt8(max(0, min(255, (p[c] * 255).rounded())))) }
        }
    }
    let f = fopen(path, "wb")
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
}
