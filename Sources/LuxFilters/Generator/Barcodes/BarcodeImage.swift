import LuxCodecs
import LuxPixels
import LuxRender

/// The image of a code symbol as Core Image's barcode generators draw it: one pixel per module, black modules on
/// white, opaque, with a quiet zone of white modules around the symbol, its top-left corner at the origin.
///
/// Black and white are 0 and 1 in every working space, so the image is the same in any of them.
enum BarcodeImage {
    /// The symbol of `writer` for `message` drawn with `quietZone` modules of white on each side (`quietZone.x`
    /// left and right, `quietZone.y` above and below) and each module row repeated `rowHeight` times.
    static func make(
        _ writer: CodeWriter, message: [UInt8], quietZone: (x: Int, y: Int), rowHeight: Int = 1
    ) throws(CodeError) -> Image {
        let matrix = try writer.matrix(for: message)
        let width = matrix.width + 2 * quietZone.x
        let height = matrix.height * rowHeight + 2 * quietZone.y
        var gray = [UInt8](repeating: 255, count: width * height)
        for y in 0..<(matrix.height * rowHeight) {
            let row = (y + quietZone.y) * width + quietZone.x
            for x in 0..<matrix.width where matrix[x, y / rowHeight] { gray[row + x] = 0 }
        }
        return Image(
            buffer: PixelBuffer(width: width, height: height, format: .gray8, components: gray, colorSpace: .sRGB))
    }
}
