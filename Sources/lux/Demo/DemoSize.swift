import ArgumentParser
import Lux

/// How big the demo's simulated sensor is: the full phone sensor for the README run, a small one for tests.
enum DemoSize: String, ExpressibleByArgument, CaseIterable {
    /// The 12-megapixel sensor (4032×3024), as the README runs it.
    case full
    /// A quarter-size sensor (2016×1512): the same story in about a quarter of the time.
    case medium
    /// A 320×240 sensor: the whole story in seconds, quick enough for tests on a debug build.
    case small

    /// The simulated sensor.
    var sensor: SensorModel {
        var model = SensorModel.phone12MP
        let width: Int
        switch self {
        case .full: return model
        case .medium: width = 2016
        case .small: width = 320
        }
        model.pixelPitch = model.sensorWidth / Double(width)
        model.height = model.height * width / model.width
        model.width = width
        return model
    }

    /// Whether Live Photo movies are stabilised (not on the small sensor: there it would be most of the run's time
    /// in a debug build, for a 320×240 movie).
    var stabilizesLivePhotos: Bool { self != .small }

    /// The long side of the contact sheet's thumbnails.
    var thumbnailSide: Int { self == .small ? 240 : 360 }
}
