import LuxPixels
import Synchronization

/// Keeps the ``StaticRadiance`` of recent views so that consecutive frames of a scene (bursts, streams,
/// brackets) pay only for resampling along the camera's path, sensor noise and the moving layers.
///
/// An entry is reused when the scene (identified by the caller's `sceneID`, which must grow whenever the
/// scene changes), the region, size, detector, lens state and flash are the same and the exposure's camera path
/// stays inside the rendered margin; otherwise the view is rendered again. A view rendered again replaces the
/// cache's view of the same framing (scene, region, size and response) taken with another lens state or flash, and
/// reuses its memory: a lens that has moved on (autofocus between stills, a flash still after an ambient one) seldom
/// comes back, and two full-size views alive at once would double a still's memory. Entries are evicted least
/// recently used first, beyond `byteLimit` bytes.
package final class RadianceCache: Sendable {
    struct Key: Hashable {
        var sceneID: UInt64
        var regionOrigin: SIMD2<Double>
        var regionSize: SIMD2<Double>
        var width: Int
        var height: Int
        var response: SpectralResponse
        var optics: RenderRequest.Optics?
        var flash: Flash?

        /// Whether `other` sees the same framing: the same scene, region, size and response, whatever the lens
        /// state and flash.
        func hasFraming(of other: Key) -> Bool {
            sceneID == other.sceneID && regionOrigin == other.regionOrigin && regionSize == other.regionSize
                && width == other.width && height == other.height && response == other.response
        }
    }

    struct Entry {
        let key: Key
        let offset: SIMD2<Int>
        let radiance: StaticRadiance
        var lastUse: UInt64
    }

    struct State {
        var entries: [Entry] = []
        var clock: UInt64 = 0
        var renders = 0
    }

    /// Bytes of cached radiance kept at most (the newest entry is kept even when it alone is larger).
    package let byteLimit: Int
    private let state = Mutex(State())

    /// Creates an empty cache.
    package init(byteLimit: Int = 200 << 20) { self.byteLimit = byteLimit }

    /// How many views have been rendered (cache misses) so far.
    package var renderCount: Int { state.withLock { $0.renders } }

    /// How many views are kept.
    package var entryCount: Int { state.withLock { $0.entries.count } }

    /// Forgets the views rendered for `width` × `height` exposures (say, the stills of a size no capture takes for a
    /// while), so their memory goes back to the system; a later exposure of that size renders its view again.
    package func removeViews(width: Int, height: Int) {
        // The removed views are returned so that their memory is freed outside the lock.
        _ = state.withLock { s -> [Entry] in
            let split = s.entries.partition { $0.key.width == width && $0.key.height == height }
            defer { s.entries.removeSubrange(split...) }
            return Array(s.entries[split...])
        }
    }

    /// The radiance of `request`'s exposure of `scene`: the cached still layers resampled along the camera's
    /// path, and the moving layers rendered for this exposure.
    package func exposure(of scene: Scene, sceneID: UInt64, request: RenderRequest, threads: Int) -> ExposureRadiance {
        let renderer = SceneRenderer(scene: scene)
        // A sliding camera moves each layer by its own parallax: none can be rendered once and shifted.
        let still =
            scene.cameraMotion.translates ? 0 : scene.layers.firstIndex { !$0.motion.isStill } ?? scene.layers.count
        let key = Key(
            sceneID: sceneID, regionOrigin: request.regionOrigin, regionSize: request.regionSize, width: request.width,
            height: request.height, response: request.response, optics: request.optics, flash: request.flash)
        let base = ExposureRadiance.maps(renderer: renderer, request: request, offset: .zero)
        func shifted(_ offset: SIMD2<Int>) -> [ExposureRadiance.AffineMap] {
            base.map { ExposureRadiance.AffineMap(a: $0.a, b: $0.b - SIMD2(Double(offset.x), Double(offset.y))) }
        }
        let cached = state.withLock { s -> (StaticRadiance, SIMD2<Int>)? in
            s.clock += 1
            for i in s.entries.indices where s.entries[i].key == key {
                let e = s.entries[i]
                let fp = ExposureRadiance.footprint(shifted(e.offset), width: request.width, height: request.height)
                if e.radiance.covers(x0: fp.0, y0: fp.1, x1: fp.2, y1: fp.3) {
                    s.entries[i].lastUse = s.clock
                    return (e.radiance, e.offset)
                }
            }
            return nil
        }
        let background: StaticRadiance
        let offset: SIMD2<Int>
        if let cached {
            (background, offset) = cached
        } else {
            // A grid around this exposure's footprint with a margin for the next ones (shake, a little pan).
            let fp = ExposureRadiance.footprint(base, width: request.width, height: request.height)
            let margin = Self.margin(scene: scene, request: request)
            offset = SIMD2(fp.0 - margin, fp.1 - margin)
            let gridWidth = fp.2 - fp.0 + 2 * margin
            let gridHeight = fp.3 - fp.1 + 2 * margin
            var victim = evictForInsertion(bytes: gridWidth * gridHeight * 3 * 2, key: key)
            var recycled: StaticRadiance? = nil
            if victim != nil, isKnownUniquelyReferenced(&victim!) { recycled = victim }
            background = StaticRadiance(
                renderer: renderer, request: request, layerCount: still, offset: offset, gridWidth: gridWidth,
                gridHeight: gridHeight, threads: threads, recycling: recycled)
            insert(Entry(key: key, offset: offset, radiance: background, lastUse: 0))
        }
        let overlay =
            still < scene.layers.count
            ? Self.overlay(
                renderer: renderer, request: request, layers: Array(still..<scene.layers.count),
                scale: background.scale, threads: threads)
            : nil
        return ExposureRadiance(
            background: background, maps: shifted(offset), overlay: overlay, width: request.width,
            height: request.height)
    }

    /// Pixels rendered beyond the frame on each side: enough for hand-held shake (about 0.4 % of the width),
    /// plus half a second of panning.
    static func margin(scene: Scene, request: RenderRequest) -> Int {
        let pan = scene.cameraMotion.panDegreesPerSecond
        let panPixels =
            (pan * pan).sum().squareRoot() * Double.pi / 180 * request.focalLengthInFrameWidths
            / request.sceneUnitsPerPixel * 0.5
        return max(8, request.width / 256) + Int(panPixels.rounded(.up))
    }

    /// Removes the views of earlier scenes (scene IDs only grow, so no exposure asks for them again), the view of
    /// `key`'s framing that the new one replaces and, when an entry of `bytes` more would still exceed the limit, the
    /// least recently used one, before the new view is rendered; returns the largest removed radiance, whose memory
    /// can then be reused for the new entry instead of being freed.
    private func evictForInsertion(bytes: Int, key: Key) -> StaticRadiance? {
        state.withLock { s in
            func replaced(_ e: Entry) -> Bool { e.key.sceneID < key.sceneID || e.key.hasFraming(of: key) }
            var removed = s.entries.filter(replaced).map(\.radiance)
            s.entries.removeAll(where: replaced)
            let total = s.entries.reduce(0) { $0 + $1.radiance.byteCount }
            if total + bytes > byteLimit,
                let oldest = s.entries.indices.min(by: { s.entries[$0].lastUse < s.entries[$1].lastUse })
            {
                removed.append(s.entries.remove(at: oldest).radiance)
            }
            return removed.max { $0.byteCount < $1.byteCount }
        }
    }

    /// Adds `entry`, dropping the views of earlier scenes (scene IDs only grow, so no exposure asks for them again)
    /// and the view of its framing it replaces.
    private func insert(_ entry: Entry) {
        state.withLock { s in
            s.renders += 1
            var e = entry
            e.lastUse = s.clock
            s.entries.removeAll { $0.key.hasFraming(of: e.key) || $0.key.sceneID < e.key.sceneID }
            s.entries.append(e)
            var total = s.entries.reduce(0) { $0 + $1.radiance.byteCount }
            while total > byteLimit, s.entries.count > 1 {
                guard
                    let oldest = s.entries.indices.dropLast().min(by: { s.entries[$0].lastUse < s.entries[$1].lastUse })
                else { break }
                total -= s.entries[oldest].radiance.byteCount
                s.entries.remove(at: oldest)
            }
        }
    }

    /// The moving layers (and everything in front of them) for this exposure, premultiplied with alpha, over
    /// the part of the output they can touch.
    static func overlay(
        renderer: SceneRenderer, request: RenderRequest, layers: [Int], scale: Float, threads: Int
    ) -> ExposureRadiance.Overlay? {
        let plans = renderer.layerPlans(request, layers: layers, atRest: false).compactMap { $0 }
        var x0 = Int.max
        var y0 = Int.max
        var x1 = Int.min
        var y1 = Int.min
        for p in plans.map(\.gridBox) {
            x0 = min(x0, max(0, p.x0))
            y0 = min(y0, max(0, p.y0))
            x1 = max(x1, min(request.width, p.x0 + p.width))
            y1 = max(y1, min(request.height, p.y0 + p.height))
        }
        guard x1 > x0, y1 > y0 else { return nil }
        var sub = request
        let s = SIMD2(request.sceneUnitsPerPixel, request.regionSize.y / Double(request.height))
        sub.regionOrigin = request.regionOrigin + SIMD2(Double(x0), Double(y0)) * s
        sub.regionSize = SIMD2(Double(x1 - x0), Double(y1 - y0)) * s
        sub.width = x1 - x0
        sub.height = y1 - y0
        let subPlans = renderer.layerPlans(sub, layers: layers, atRest: false).compactMap { $0 }
        let image = PlanarBuffer<Float16>(width: sub.width, height: sub.height, planes: 4, zeroed: false)
        let w = sub.width
        SceneRenderer.renderBands(subPlans, width: w, height: sub.height, withAlpha: true, threads: threads) { y, row in
            for c in 0..<3 {
                image.store(plane: c, row: y, from: row + c * w, scaledBy: scale, count: w, streaming: false)
            }
            image.store(plane: 3, row: y, from: row + 3 * w, count: w)
        }
        return ExposureRadiance.Overlay(image: image, x0: x0, y0: y0)
    }
}
