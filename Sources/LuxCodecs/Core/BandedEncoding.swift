import LuxColor
import LuxPixels

/// The band bookkeeping shared by the streaming JPEG and PNG encoders: width and row checks, the row count,
/// and the finished state.
struct BandCounter {
    let width: Int
    let height: Int
    let name: String
    private(set) var rowsWritten = 0
    private(set) var finished = false

    init(width: Int, height: Int, name: String) {
        self.width = width
        self.height = height
        self.name = name
    }

    /// Throws unless `band` can be appended.
    func check(_ band: PixelBuffer) throws(CodecError) {
        guard !finished else { throw .invalidArgument("the \(name) encoder has already finished") }
        guard band.width == width else {
            throw .invalidArgument("a band of width \(band.width) does not fit a \(width)-pixel-wide image")
        }
        guard rowsWritten + band.height <= height else {
            throw .invalidArgument("\(rowsWritten + band.height) rows exceed the image height \(height)")
        }
    }

    mutating func advance(by rows: Int) { rowsWritten += rows }

    /// Throws unless every row was written; marks the encoder finished.
    mutating func finish() throws(CodecError) {
        guard !finished else { throw .invalidArgument("the \(name) encoder has already finished") }
        guard rowsWritten == height else {
            throw .invalidArgument("only \(rowsWritten) of \(height) rows were written")
        }
        finished = true
    }
}

/// Calls a C entry point that reports failure as a negative status with a message, throwing
/// ``CodecError/library(name:message:)``.
func callC(_ library: String, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws(CodecError) {
    var message = [CChar](repeating: 0, count: 512)
    let status = message.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    guard status == 0 else { throw .library(name: library, message: cMessage(message)) }
}

extension PixelBuffer {
    /// The band as an encoder that gathers bands stores it: colour-matched into `space` (a band without a colour
    /// space is taken to be in it) and converted to `format`.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when the colours cannot be matched.
    func preparedForStreaming(in space: ColorSpace?, format: PixelFormat, threads: Int) throws(CodecError)
        -> PixelBuffer
    {
        var source = self
        if source.colorSpace == nil { source.colorSpace = space }
        if let from = source.colorSpace, let to = space, !from.isColorimetricallyEqual(to: to) {
            do {
                source = try source.converted(to: .rgbaFloat, threads: threads).matchingColors(to: to, threads: threads)
            } catch {
                throw .invalidArgument("cannot convert a band to \(to.name): \(error)")
            }
        }
        if source.format != format { source = source.converted(to: format, threads: threads) }
        return source
    }
}
