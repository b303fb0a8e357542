public import LuxRender

extension Filters {
    /// An infinite image of noise: each pixel's red, green, blue and alpha are independent, uniformly distributed
    /// in [0, 1) (straight values in the working space), from a hash of the pixel's position — the same pixel
    /// always has the same value, whatever is rendered around it.
    public struct RandomGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "RandomGenerator", categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "Infinite uniform noise in red, green, blue and alpha.")

        public init() {}

        public var outputImage: Image {
            let kernel = ColorKernel(name: "random", inputCount: 0, alphaHandling: .unpremultiplied) { row in
                let p = row.pixels
                let y = UInt32(truncatingIfNeeded: row.y)
                for i in 0..<row.count {
                    let x = UInt32(truncatingIfNeeded: row.x + i)
                    let seed = PixelHash.mix(x &* 0x8DA6_B343 ^ y &* 0xD816_3841)
                    p.red[i] = PixelHash.unit(PixelHash.mix(seed ^ 0x68E3_1DA4))
                    p.green[i] = PixelHash.unit(PixelHash.mix(seed ^ 0xB529_7A4D))
                    p.blue[i] = PixelHash.unit(PixelHash.mix(seed ^ 0x1B56_C4E9))
                    p.alpha[i] = PixelHash.unit(PixelHash.mix(seed ^ 0x7FEB_352D))
                }
            }
            return kernel.apply(extent: .infinite, inputs: [])
        }
    }
}

/// Integer hashing for procedural noise (vectorisable: multiplies, shifts and xors on 32-bit lanes).
enum PixelHash {
    /// A 32-bit finaliser with good avalanche (the "lowbias32" constants).
    @inline(__always)
    static func mix(_ v: UInt32) -> UInt32 {
        var x = v
        x ^= x >> 16
        x &*= 0x7FEB_352D
        x ^= x >> 15
        x &*= 0x846C_A68B
        x ^= x >> 16
        return x
    }

    /// The top 24 bits as a value in [0, 1).
    @inline(__always)
    static func unit(_ v: UInt32) -> Float { Float(v >> 8) * (1 / 16_777_216) }
}

extension Image {
    /// Infinite uniform noise (see ``Filters/RandomGenerator``).
    public static func random() -> Image { Filters.RandomGenerator().outputImage }
}
