import LuxPixels

/// The thread count codecs use when the caller does not say (all processors).
let defaultThreadCount: Int = Parallel.defaultThreadCount
