import LuxPixels
import Testing

@testable import LuxRAW

@Suite struct DemosaicBasics {
    @Test("a flat grey mosaic demosaics to flat grey", arguments: DemosaicMethod.allCases, CFAPattern.allCases)
    func flat(method: DemosaicMethod, pattern: CFAPattern) throws {
        let mosaic = PixelBuffer(width: 40, height: 30, format: .grayFloat)
        var m = mosaic
        m.withUnsafeMutablePlane { p in for y in 0..<30 { p.row(y, as: Float.self).update(repeating: 0.4, count: 40) } }
        let out = try method.demosaic(m, pattern: pattern).components(as: Float.self)
        for i in stride(from: 0, to: out.count, by: 4) {
            #expect(abs(out[i] - 0.4) < 1e-5 && abs(out[i + 1] - 0.4) < 1e-5 && abs(out[i + 2] - 0.4) < 1e-5)
        }
    }
}
