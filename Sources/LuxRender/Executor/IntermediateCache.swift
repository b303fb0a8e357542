import LuxPixels
import Synchronization

/// Materialised intermediates kept across renders of one context, least recently used out first.
final class IntermediateCache: Sendable {
    struct Key: Hashable {
        let digest: String
        let region: PixelRect
        let format: PixelFormat
        let layout: PixelLayout
        let quantize: PixelFormat?
    }

    private struct Entry {
        let buffer: CachedBuffer
        let bytesPerRow: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let byteLimit: Int

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    func lookup(_ key: Key) -> (CachedBuffer, Int)? {
        state.withLock { s in
            guard var e = s.entries[key] else { return nil }
            s.clock += 1
            e.lastUse = s.clock
            s.entries[key] = e
            return (e.buffer, e.bytesPerRow)
        }
    }

    func store(_ key: Key, _ buffer: CachedBuffer, bytesPerRow: Int) {
        guard buffer.byteCount <= byteLimit else { return }
        state.withLock { s in
            if let old = s.entries[key] { s.bytes -= old.buffer.byteCount }
            s.clock += 1
            s.entries[key] = Entry(buffer: buffer, bytesPerRow: bytesPerRow, lastUse: s.clock)
            s.bytes += buffer.byteCount
            while s.bytes > byteLimit, let victim = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                s.bytes -= victim.value.buffer.byteCount
                s.entries[victim.key] = nil
            }
        }
    }

    func removeAll() {
        state.withLock { s in
            s.entries = [:]
            s.bytes = 0
        }
    }

    var byteCount: Int { state.withLock { $0.bytes } }
    var count: Int { state.withLock { $0.entries.count } }
}
