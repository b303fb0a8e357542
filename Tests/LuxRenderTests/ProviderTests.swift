import LuxColor
import LuxPixels
import LuxRender
import Synchronization
import Testing

/// A provider that computes a pattern and records the regions asked for.
final class PatternProvider: ImageProvider {
    let width: Int
    let height: Int
    let format = PixelFormat.rgba8
    let colorSpace: ColorSpace? = .sRGB
    let requests = Mutex<[Rect]>([])

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    static func value(_ x: Int, _ y: Int, _ c: Int) -> UInt8 { UInt8(truncatingIfNeeded: x &* 7 &+ y &* 13 &+ c &* 50) }

    func provide(_ output: ImageProcessorOutput) throws {
        requests.withLock { $0.append(output.region) }
        let x0 = Int(output.region.minX)
        let y0 = Int(output.region.minY)
        for j in 0..<output.height {
            let row = output.row(j, as: UInt8.self)
            for i in 0..<output.width {
                for c in 0..<3 { row[4 * i + c] = Self.value(x0 + i, y0 + j, c) }
                row[4 * i + 3] = 255
            }
        }
    }

    var buffer: PixelBuffer {
        var comps: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { comps += [Self.value(x, y, 0), Self.value(x, y, 1), Self.value(x, y, 2), 255] }
        }
        return PixelBuffer(width: width, height: height, format: .rgba8, components: comps, colorSpace: .sRGB)
    }
}

@Suite struct ProviderTests {
    @Test("a provider renders like the same pixels in a buffer and is asked only for needed regions")
    func providerMatchesBuffer() throws {
        let provider = PatternProvider(width: 300, height: 200)
        let fromProvider = Image(provider: provider)
        let fromBuffer = Image(buffer: provider.buffer)
        #expect(fromProvider.extent == fromBuffer.extent)
        let context = RenderContext(options: RenderOptions(threadCount: 2, tileSize: 64))
        let crop = Rect(x: 100, y: 50, width: 40, height: 30)
        func pipeline(_ i: Image) -> Image {
            TestKernels.blurred(i.clampedToExtent(), radius: 2).applying(TestKernels.invert).cropped(to: crop)
        }
        let a = try context.createBuffer(pipeline(fromProvider), from: crop).components(as: UInt8.self)
        let b = try context.createBuffer(pipeline(fromBuffer), from: crop).components(as: UInt8.self)
        #expect(a == b)
        let requested = provider.requests.withLock { $0 }.reduce(Rect.null) { $0.union($1) }
        #expect(requested == Rect(x: 98, y: 48, width: 44, height: 34), "\(requested)")
        // Straight sRGB in, sRGB out: the whole image round-trips exactly.
        let all = try context.createBuffer(fromProvider)
        #expect(all.components(as: UInt8.self) == provider.buffer.components(as: UInt8.self))
    }
}
