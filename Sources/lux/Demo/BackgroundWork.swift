import Foundation
import Lux
import LuxPixels

#if canImport(Glibc)
    import Glibc
#endif

/// Synchronous work (decoding, developing, merging, encoding) that runs on a low-priority thread of its own while the
/// caller goes on, and whose result the caller awaits later: the demo's work that needs only files already written.
///
/// It should render on that one thread (with a ``renderContext()``) at nice value 10, so it takes the
/// processors only while the capture leaves them idle — mostly while the session's monitoring frames come a frame
/// time apart as exposure and focus follow a scene change — and never slows the camera's frames: at normal priority
/// beside them, the stream's frame rate halved (13 instead of 30 frames a second) and so did the settle it counts.
/// Not a task either: seconds of synchronous work in a task hold one of Swift concurrency's cooperative threads. Not
/// ``offloaded(_:)`` (a `DetachedThread` too): its slots are the capture's, and this work would hold one for seconds.
struct BackgroundWork<T: Sendable>: Sendable {
    private let task: Task<T, any Error>

    /// Starts `work` on a new low-priority thread once `previous` (if any: another work's ``finished``) has
    /// returned, so two pieces of work never hold their buffers at once.
    init(after previous: (@Sendable () async -> Void)? = nil, _ work: @escaping @Sendable () throws -> T) {
        task = Task {
            await previous?()
            return try await withCheckedThrowingContinuation { continuation in
                DetachedThread.detach {
                    #if canImport(Glibc)
                        // `who` 0 is the calling thread (Linux's nice values are per thread): the rest of the process
                        // keeps its priority.
                        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
                    #endif
                    continuation.resume(with: Result(catching: work))
                }
            }
        }
    }

    /// Returns once the work has finished, successfully or not.
    var finished: @Sendable () async -> Void { { [task] in _ = try? await task.value } }

    /// The work's result, once it has finished.
    var value: T {
        get async throws { try await task.value }
    }

    /// A context for rendering on the work's thread: low priority, one worker thread, no cached intermediates (the
    /// work renders each image once; a cache would only add its memory to the capture's).
    static func renderContext() -> RenderContext {
        RenderContext(options: RenderOptions(cacheIntermediates: false, lowPriority: true))
    }
}
