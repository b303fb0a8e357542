import FoundationEssentials
import Glibc
import LuxPixels
import Synchronization

/// The edited still rendered on a thread of its own while the movie renders, into a hidden temporary file beside
/// the still that ``commit()`` renames into place once the movie is complete.
///
/// The thread's lifetime is scoped to the edit: ``commit()`` and ``discard()`` wait for it, and so does `deinit`, so
/// no render outlives the edit that started it, and a failed edit leaves no file behind. Used from one thread.
final class BackgroundStillRender {
    /// Where the still goes when the pair is complete.
    let url: URL
    private let temporaryURL: URL
    private let outcome = Outcome()
    private let thread: DetachedThread

    /// What the thread's write ended with (`nil` while it runs).
    private final class Outcome: Sendable {
        let result = Mutex<Result<Void, LivePhotoError>?>(nil)
    }

    /// Starts `write`, which writes the still to the URL it is given, on a thread of its own.
    init(url: URL, write: @escaping @Sendable (URL) throws(LivePhotoError) -> Void) {
        self.url = url
        let temporaryURL = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).lux-still-\(UUID().uuidString.prefix(8))")
        self.temporaryURL = temporaryURL
        let outcome = outcome
        thread = DetachedThread {
            do throws(LivePhotoError) {
                try write(temporaryURL)
                outcome.result.withLock { $0 = .success(()) }
            } catch {
                outcome.result.withLock { $0 = .failure(error) }
            }
        }
    }

    deinit { discard() }

    /// Waits for the still and renames it to ``url``.
    ///
    /// - Throws: The render's error, or ``LivePhotoError/write(_:_:)`` when the rename fails; the temporary file is
    ///   removed either way.
    func commit() throws(LivePhotoError) {
        thread.join()
        let result = outcome.result.withLock { $0 } ?? .failure(.cancelled)
        do throws(LivePhotoError) {
            try result.get()
            if rename(temporaryURL.path, url.path) != 0 {
                throw .write(url, .io(path: url.path, reason: String(cString: strerror(errno))))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporaryURL)
            throw error
        }
    }

    /// Waits for the still and removes its temporary file (when the edit failed before the pair was complete).
    func discard() {
        thread.join()
        try? FileManager.default.removeItem(at: temporaryURL)
    }
}
