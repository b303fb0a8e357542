import Dispatch

/// Runs CPU-heavy synchronous work (developing, merging, encoding) on a Dispatch worker instead of a thread of
/// Swift's cooperative pool, so event delivery and other tasks keep running while a photo is processed.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws(CaptureError) -> T) async throws(CaptureError) -> T {
    let result: Result<T, CaptureError> = await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(CaptureError) {
                continuation.resume(returning: .success(try work()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
    }
    return try result.get()
}
