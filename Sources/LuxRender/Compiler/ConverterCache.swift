import LuxColor
import Synchronization

/// The colour converters renders have built, by source and destination, kept for the process.
///
/// Every render lowers and optimises its graph anew (a Live Photo edit renders each movie frame through the same
/// recipe), and building a converter derives its matrix and fills its tables (a 65 536-entry encoder among them):
/// more work than the colour match of a small tile. A converter depends on nothing but its two spaces, so one built
/// once serves every later render. At most ``capacity`` are kept; the cache starts over when full.
enum ConverterCache {
    struct Key: Hashable {
        let source: ColorSpace
        let destination: ColorSpace
    }

    static let capacity = 64
    private static let converters = Mutex<[Key: ColorConverter]>([:])

    /// The converter from `source` to `destination`, built on first use.
    ///
    /// - Throws: What ``ColorConverter/init(from:to:)`` throws.
    static func converter(from source: ColorSpace, to destination: ColorSpace) throws(ColorError) -> ColorConverter {
        let key = Key(source: source, destination: destination)
        if let known = converters.withLock({ $0[key] }) { return known }
        let built = try ColorConverter(from: source, to: destination)
        converters.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0[key] = built
        }
        return built
    }
}
