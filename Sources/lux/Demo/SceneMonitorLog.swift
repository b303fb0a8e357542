import Foundation
import Lux
import Synchronization

/// Records the photo output's scene-monitoring flags (``PhotoOutput/isFlashScene`` and
/// ``PhotoOutput/isStillImageStabilizationScene``) as they are published, with the time of each value.
final class SceneMonitorLog: Sendable {
    private let entries = Mutex<[(ContinuousClock.Instant, String, Bool)]>([])
    private let tasks = Mutex<[Task<Void, Never>]>([])

    init(output: PhotoOutput) {
        for (name, property) in [
            ("isFlashScene", PhotoOutput.SceneMonitoringProperty.isFlashScene),
            ("isStillImageStabilizationScene", .isStillImageStabilizationScene),
        ] {
            let values = output.values(of: property)
            let task = Task { [weak self] in
                for await value in values {
                    self?.entries.withLock { $0.append((ContinuousClock.now, name, value)) }
                }
            }
            tasks.withLock { $0.append(task) }
        }
    }

    deinit { tasks.withLock { for task in $0 { task.cancel() } } }

    /// The values published from `start` up to `end`, as timeline events relative to `start`.
    func events(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant = .now) -> [DemoSection.Event] {
        entries.withLock { list in
            list.filter { $0.0 >= start && $0.0 < end }.map { instant, name, value in
                let d = instant - start
                return DemoSection.Event(
                    milliseconds: Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15,
                    name: name, detail: value ? "true" : "false")
            }
        }
    }
}
