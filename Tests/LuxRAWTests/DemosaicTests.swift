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

    @Test("RCD's split rows come back as any run of columns: even and odd widths, starts and counts")
    func splitRowsInterleave() {
        for w in [1, 2, 7, 8, 33] {
            let row: [Float] = (0..<w).map { Float($0 * 3 + 1) }
            var split = [Float](repeating: .nan, count: w)
            RCDDemosaic.split(row, into: &split, w)
            for x0 in 0..<w {
                for n in 0...(w - x0) {
                    var out = [Float](repeating: -1, count: n + 1)
                    RCDDemosaic.interleave(split, width: w, from: x0, count: n, into: &out)
                    #expect(Array(out[..<n]) == Array(row[x0..<(x0 + n)]), "w \(w) from \(x0) count \(n)")
                    #expect(out[n] == -1, "w \(w) from \(x0) count \(n): wrote past the end")
                }
            }
        }
    }
}
