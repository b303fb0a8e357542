import LuxPixels

extension Duration {
    /// The duration of a media time, to the attosecond (rounded toward zero).
    ///
    /// - Precondition: `time` is numeric.
    init(_ time: MediaTime) {
        precondition(time.isNumeric, "\(time) is not a number of seconds")
        self = .seconds(time.value) / Int(time.timescale)
    }
}
