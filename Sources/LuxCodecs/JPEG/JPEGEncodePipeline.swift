internal import CLuxCodecShims
import Dispatch
import Synchronization

/// Whole iMCU rows of a colour stream compressed in slots: while libjpeg compresses slot i on one thread, the rows of
/// slot i + 1 are converted to Y′CbCr on another (with one thread, each slot is converted, then compressed).
struct JPEGEncodePipeline: @unchecked Sendable {  // the threads touch disjoint slots of the stream
    let stream: OpaquePointer
    /// The rows to compress.
    let rows: Int
    /// Whether to convert on a second thread.
    let isConcurrent: Bool
    /// Converts (or decodes) `count` rows from row `first` (relative to the pipeline's first row) into a slot; returns
    /// why it failed, or `nil`.
    let convert: (_ slot: Int32, _ first: Int, _ count: Int) -> CodecError?

    func run() throws(CodecError) {
        guard rows > 0 else { return }
        let slotRows = Int(lux_jpeg_stream_slot_rows(stream))
        let slots = (rows + slotRows - 1) / slotRows
        // The first failure of either side.
        let failure = Mutex<CodecError?>(nil)
        convert(0, slotRows: slotRows, failure)
        if let error = failure.withLock({ $0 }) { throw error }
        for i in 1...slots {
            if i == slots {
                write(i - 1, failure)
            } else if isConcurrent {
                DispatchQueue.concurrentPerform(iterations: 2) { k in
                    if k == 0 { write(i - 1, failure) } else { convert(i, slotRows: slotRows, failure) }
                }
            } else {
                write(i - 1, failure)
                convert(i, slotRows: slotRows, failure)
            }
            if let error = failure.withLock({ $0 }) { throw error }
        }
    }

    /// `nil` for the status of a conversion the shim did (a refused one is a programming error: a slot out of turn).
    static func converted(_ status: Int32) -> CodecError? {
        precondition(status == 0, "the JPEG pipeline converted a slot out of turn")
        return nil
    }

    private func convert(_ i: Int, slotRows: Int, _ failure: borrowing Mutex<CodecError?>) {
        let first = i * slotRows
        guard let error = convert(Int32(i & 1), first, min(slotRows, rows - first)) else { return }
        failure.withLock { if $0 == nil { $0 = error } }
    }

    private func write(_ i: Int, _ failure: borrowing Mutex<CodecError?>) {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { m in
            lux_jpeg_stream_write_slot(stream, Int32(i & 1), m.baseAddress, m.count)
        }
        if status != 0 {
            failure.withLock { if $0 == nil { $0 = .library(name: "libjpeg", message: cMessage(message)) } }
        }
    }
}
