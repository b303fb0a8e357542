import ArgumentParser
import Lux

/// `lux filters [NAME] [--category C]`: what the filter engine offers.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the built-in filters, or describe one.",
        discussion: """
            Without arguments, lists every filter by category. With a name, prints its parameters with types, \
            defaults, ranges and units: the keys `lux filter --chain` accepts.

            Examples:
              lux filters
              lux filters GaussianBlur
              lux filters --category Blur
              lux filters --markdown > Sources/LuxFilters/CATALOG.md
            """)

    @Argument(help: "A filter to describe (Core Image names such as CISepiaTone work too).")
    var name: String?

    @Option(help: "Only filters in this category (e.g. Blur, ColorAdjustment, Generator).")
    var category: String?

    @Flag(help: "Print the catalogue of expected filters with their status as Markdown (CATALOG.md).")
    var markdown = false

    func run() throws {
        let registry = FilterRegistry.builtIn
        if markdown {
            print(FilterCatalog.markdown(registry: registry), terminator: "")
            return
        }
        if let name {
            do {
                print(try registry.descriptor(named: name))
            } catch {
                throw ValidationError(error.description)
            }
            return
        }
        // Without --category, group by kind; usage categories (StillImage, Video...) would repeat everything.
        let usage: Set<FilterCategory> = [.builtIn, .stillImage, .video, .highDynamicRange]
        let categories = registry.categories.filter { c in
            if let category { return c.name.lowercased() == category.lowercased() }
            return !usage.contains(c)
        }
        if categories.isEmpty, let category {
            throw ValidationError(
                "unknown category '\(category)'; known: \(registry.categories.map(\.name).joined(separator: ", "))")
        }
        for c in categories {
            let names = registry.names(in: c)
            guard !names.isEmpty else { continue }
            print("\(c.name):")
            for n in names {
                let d = try registry.descriptor(named: n)
                print("  \(n.padding(28)) \(d.summary)")
            }
        }
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
