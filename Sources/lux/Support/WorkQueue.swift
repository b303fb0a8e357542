import Foundation
import Synchronization

/// Runs `count` items on `workers` threads, each taking the next unstarted item (so at most `workers` items are in
/// memory at once).
///
/// Returns when every item has finished.
enum WorkQueue {
    static func run(count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let next = Counter()
        let workers = max(1, min(workers, count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while true {
                    let i = next.take()
                    guard i < count else { break }
                    body(i)
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }
}

/// A shared counter handing out 0, 1, 2 and so on.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func take() -> Int {
        value.withLock { n in
            defer { n += 1 }
            return n
        }
    }
}
