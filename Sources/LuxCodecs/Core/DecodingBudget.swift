import Synchronization

/// The memory one decode has allocated so far, against ``DecodingLimits/maxByteCount``.
///
/// A decode reserves each large allocation (pixels, strip and tile working sets, libjpeg's buffers, inflated
/// metadata, previews) before making it, so several allocations that each pass the limit cannot add up past
/// it. The budget is shared by the threads of one decode.
package final class DecodingBudget: Sendable {
    /// The most bytes the decode may reserve.
    package let limit: Int
    private let used = Mutex(0)

    /// A budget of `limit` bytes, none used.
    package init(limit: Int) { self.limit = max(0, limit) }

    /// The bytes reserved so far.
    package var reserved: Int { used.withLock { $0 } }

    /// The bytes still available.
    package var remaining: Int { used.withLock { max(0, limit - $0) } }

    /// Reserves `bytes` for `what`.
    ///
    /// - Throws: ``CodecError/limitExceeded(what:value:limit:)`` (nothing is reserved) when the decode's total
    ///   would pass the limit; `value` is that total.
    package func reserve(_ bytes: Int, for what: String) throws(CodecError) {
        let result: Int? = used.withLock { used in
            let (total, overflow) = used.addingReportingOverflow(max(0, bytes))
            guard !overflow, total <= limit else { return overflow ? .max : total }
            used = total
            return nil
        }
        if let total = result {
            throw .limitExceeded(what: "\(what): total decoding memory", value: total, limit: limit)
        }
    }

    /// Reserves the output of a strip- or tile-based decode and the working sets of as many chunks as can be
    /// decoded at once within the budget (at most `threads`, at least 1), and returns that number.
    ///
    /// - Throws: ``CodecError/limitExceeded(what:value:limit:)`` when the output and one chunk do not fit.
    package func reserveChunkedDecode(outputBytes: Int, chunkBytes: Int, threads: Int, what: String)
        throws(CodecError) -> Int
    {
        let (one, overflow) = outputBytes.addingReportingOverflow(max(0, chunkBytes))
        try reserve(overflow ? .max : one, for: "\(what) (image and one strip or tile)")
        guard chunkBytes > 0, threads > 1 else { return max(1, threads) }
        let extra = min(threads - 1, remaining / chunkBytes)
        try reserve(extra * chunkBytes, for: "\(what) (parallel strips or tiles)")
        return 1 + extra
    }
}

extension DecodingOptions {
    /// These options with a fresh ``DecodingBudget`` of `limits.maxByteCount` unless a decode already started one
    /// (a decoder that calls another shares its budget).
    package func budgeted() -> DecodingOptions {
        guard budget == nil else { return self }
        var copy = self
        copy.budget = DecodingBudget(limit: limits.maxByteCount)
        return copy
    }

    /// Reserves `bytes` in the decode's budget (or, outside a budgeted decode, checks them against
    /// `limits.maxByteCount` alone).
    package func reserve(_ bytes: Int, for what: String) throws(CodecError) {
        try (budget ?? DecodingBudget(limit: limits.maxByteCount)).reserve(bytes, for: what)
    }

    /// The bytes the decode may still allocate.
    package var remainingBytes: Int { budget?.remaining ?? limits.maxByteCount }
}
