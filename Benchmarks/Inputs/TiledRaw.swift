public import LuxCodecs
import LuxPixels

/// Large raw mosaics made from a small genuine one, for the benchmarks and the tests that need camera-sized files
/// (the package commits only small samples).
public enum TiledRaw {
    /// The active area of `raw` repeated to `width`×`height`, with its colour description and levels.
    ///
    /// The active area starts at even offsets in every committed sample, so the CFA phase is kept; the result has
    /// no masked areas, no default crop and no previews.
    public static func tiling(_ raw: RawImage, width: Int, height: Int) throws(CodecError) -> RawImage {
        guard let pattern = raw.properties.cfaPattern else {
            throw .unsupported(what: "raw image", reason: "tiling needs a Bayer CFA mosaic")
        }
        let tile = raw.activePixels
        var mosaic = PixelBuffer(width: width, height: height, format: .bayer16(pattern))
        mosaic.withUnsafeMutablePlane { destination in
            tile.withUnsafePlane { source in
                for y in 0..<height {
                    let from = source.row(y % tile.height, as: UInt16.self)
                    let to = destination.row(y, as: UInt16.self)
                    for x in stride(from: 0, to: width, by: tile.width) {
                        (to + x).update(from: from, count: min(tile.width, width - x))
                    }
                }
            }
        }
        var properties = raw.properties
        properties.width = width
        properties.height = height
        properties.activeArea = RawArea(top: 0, left: 0, bottom: height, right: width)
        properties.defaultCrop = nil
        properties.maskedAreas = []
        properties.previews = []
        properties.blackLevel.deltaH = nil
        properties.blackLevel.deltaV = nil
        return RawImage(pixels: mosaic, properties: properties)
    }
}
