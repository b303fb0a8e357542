import LuxPixels
import LuxScene
import Synchronization
import Testing

@testable import LuxCapture

@Suite struct PreparationTests {
    func rawKey(_ rig: CaptureRig) -> BufferPool.Key { .init(format: .bayer14(.rggb), width: 320, height: 240) }

    /// Lets other tasks run until `output` has taken the prepare call for `settings` (it records the settings at
    /// once, then waits for the session).
    static func waitUntilPreparing(_ output: PhotoOutput, for settings: [PhotoSettings]) async {
        while output.preparedPhotoSettings.map(\.uniqueID) != settings.map(\.uniqueID) { await Task.yield() }
    }

    @Test("The default prepared settings are one default PhotoSettings, allocated when the session starts")
    func defaultPreparation() async throws {
        let rig = try await CaptureRig.make(start: false)
        #expect(rig.photo.preparedPhotoSettings.count == 1)
        #expect(rig.photo.preparedPhotoSettings[0].processedFormat == .jpeg)
        #expect(rig.photo.preparedByteCount == 0)
        try await rig.session.startRunning()
        #expect(rig.photo.preparedByteCount > 0)
    }

    @Test("prepare completes only once the session runs, and persists across stop/start")
    func waitsForRunning() async throws {
        let rig = try await CaptureRig.make(start: false)
        let done = Atomic<Bool>(false)
        let raw = PhotoSettings(rawPixelFormat: .bayer14(.rggb))
        let task = Task {
            try await rig.photo.prepare([raw])
            done.store(true, ordering: .sequentiallyConsistent)
        }
        await Self.waitUntilPreparing(rig.photo, for: [raw])
        let early = done.load(ordering: .sequentiallyConsistent)
        #expect(!early)
        #expect(rig.photo.pool.statistics(format: .bayer14(.rggb), width: 320, height: 240).allocated == 0)
        try await rig.session.startRunning()
        // The buffers are there when startRunning returns, before the first capture can be requested.
        #expect(rig.photo.pool.statistics(format: .bayer14(.rggb), width: 320, height: 240).idle >= 1)
        try await task.value
        let finished = done.load(ordering: .sequentiallyConsistent)
        #expect(finished)
        await rig.session.stopRunning()
        try await rig.session.startRunning()
        #expect(rig.photo.preparedPhotoSettings.map(\.uniqueID) == [raw.uniqueID])
        #expect(rig.photo.pool.statistics(format: .bayer14(.rggb), width: 320, height: 240).idle >= 1)
    }

    @Test("A second prepare cancels the first")
    func secondCancelsFirst() async throws {
        let rig = try await CaptureRig.make(start: false)
        let firstSettings = PhotoSettings()
        let first = Task { try await rig.photo.prepare([firstSettings]) }
        await Self.waitUntilPreparing(rig.photo, for: [firstSettings])
        let second = Task { try await rig.photo.prepare([PhotoSettings(rawPixelFormat: .bayer14(.rggb))]) }
        await #expect(throws: CaptureError.self) { try await first.value }
        try await rig.session.startRunning()
        try await second.value
    }

    @Test("prepare reclaims what other kinds used; an empty array reclaims everything")
    func reclaims() async throws {
        let rig = try await CaptureRig.make()
        try await rig.photo.prepare([PhotoSettings(rawPixelFormat: .bayer14(.rggb))])
        #expect(rig.photo.pool.statistics(format: .bayer14(.rggb), width: 320, height: 240).allocated >= 1)
        try await rig.photo.prepare([PhotoSettings(format: .pixelFormat(.bgra8))])
        #expect(rig.photo.pool.statistics(format: .bayer14(.rggb), width: 320, height: 240).allocated == 0)
        #expect(rig.photo.pool.statistics(format: .bgra8, width: 240, height: 180).allocated >= 1)
        try await rig.photo.prepare([])
        #expect(rig.photo.preparedByteCount == 0)
        #expect(rig.camera.pool.statistics(format: .bayer14(.rggb), width: 320, height: 240).idle == 0)
        // Unprepared kinds still capture (and pay for their buffers).
        let events = try await collect(try rig.photo.capturePhoto(PhotoSettings(rawPixelFormat: .bayer14(.rggb))))
        #expect(events.photos.count == 1)
    }

    @Test("prepare frees the frames a kept kind no longer needs: a shorter burst keeps fewer RAW frames")
    func reclaimsBeyondTheBurst() async throws {
        let rig = try await CaptureRig.make()
        let key = rawKey(rig)
        rig.photo.maxPhotoQualityPrioritization = .quality
        // Planned for the longest burst of each level (a low-light scene): 8 frames at quality, 4 at balanced.
        var quality = PhotoSettings()
        quality.qualityPrioritization = .quality
        try await rig.photo.prepare([quality])
        let before = rig.camera.pool.statistics(format: key.format, width: key.width, height: key.height)
        #expect(before.allocated >= QualityPlanner.qualityFrames(lowLight: true))
        try await rig.photo.prepare([PhotoSettings()])
        let after = rig.camera.pool.statistics(format: key.format, width: key.width, height: key.height)
        #expect(after.allocated - after.outstanding <= QualityPlanner.balancedFrames(lowLight: true))
        #expect(after.allocated < before.allocated)
    }

    @Test("prepare takes part in begin/commitConfiguration: it completes at the commit")
    func deferredByConfiguration() async throws {
        let rig = try await CaptureRig.make()
        let done = Atomic<Bool>(false)
        rig.session.beginConfiguration()
        let bgra = PhotoSettings(format: .pixelFormat(.bgra8))
        let task = Task {
            try await rig.photo.prepare([bgra])
            done.store(true, ordering: .sequentiallyConsistent)
        }
        await Self.waitUntilPreparing(rig.photo, for: [bgra])
        let early = done.load(ordering: .sequentiallyConsistent)
        #expect(!early)
        #expect(rig.photo.pool.statistics(format: .bgra8, width: 240, height: 180).allocated == 0)
        try rig.session.commitConfiguration()
        // The commit allocated the buffers before it returned.
        #expect(rig.photo.pool.statistics(format: .bgra8, width: 240, height: 180).allocated >= 1)
        try await task.value
    }

    @Test("Preparing settings the configuration cannot capture throws their rule")
    func invalid() async throws {
        let rig = try await CaptureRig.make(format: CaptureRig.videoFormat(highQuality: true))
        await #expect(throws: CaptureError.self) {
            try await rig.photo.prepare([PhotoSettings(rawPixelFormat: .bayer14(.rggb))])
        }
    }
}
