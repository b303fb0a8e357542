import Dispatch
import Synchronization

/// Runs `body` for every tile on `workers.count` threads, handing out tiles dynamically.
///
/// Stops at the first error and rethrows it.
func forEachTile(
    _ tiles: [PixelRect], workers: [Worker], isCancelled: (@Sendable () -> Bool)? = nil,
    _ body: (PixelRect, Worker) throws(RenderError) -> Void
) throws(RenderError) {
    if workers.count <= 1 || tiles.count <= 1 {
        for t in tiles {
            if isCancelled?() == true { throw .cancelled }
            try body(t, workers[0])
        }
        return
    }
    let next = Atomic<Int>(0)
    let failure = Mutex<RenderError?>(nil)
    withoutActuallyEscaping(body) { body in
        let job = TileJob(tiles: tiles, workers: workers, body: body)
        DispatchQueue.concurrentPerform(iterations: min(workers.count, tiles.count)) { wi in
            let worker = job.workers[wi]
            while true {
                let t = next.add(1, ordering: .relaxed).oldValue
                if t >= job.tiles.count { break }
                if failure.withLock({ $0 != nil }) { break }
                if isCancelled?() == true {
                    failure.withLock { if $0 == nil { $0 = .cancelled } }
                    break
                }
                do throws(RenderError) {
                    try job.body(job.tiles[t], worker)
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    break
                }
            }
        }
    }
    if let e = failure.withLock({ $0 }) { throw e }
}

/// The shared state of a parallel tile loop.
private final class TileJob: @unchecked Sendable {
    // @unchecked: each iteration uses only its own worker; tiles and the body are read-only.
    let tiles: [PixelRect]
    let workers: [Worker]
    let body: (PixelRect, Worker) throws(RenderError) -> Void

    init(tiles: [PixelRect], workers: [Worker], body: @escaping (PixelRect, Worker) throws(RenderError) -> Void) {
        self.tiles = tiles
        self.workers = workers
        self.body = body
    }
}
