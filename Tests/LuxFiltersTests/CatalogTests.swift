import Foundation
import LuxFilters
import LuxRender
import Testing

/// `Sources/LuxFilters/CATALOG.md` is generated, never edited: this test fails when it is out of date and
/// rewrites it when `LUX_UPDATE_CATALOG=1` is set.
@Suite struct CatalogTests {
    static var path: String {
        var p = #filePath
        for _ in 0..<3 { p = String(p[..<(p.lastIndex(of: "/") ?? p.startIndex)]) }
        return p + "/Sources/LuxFilters/CATALOG.md"
    }

    @Test("CATALOG.md equals FilterCatalog.markdown() (set LUX_UPDATE_CATALOG=1 to regenerate)")
    func upToDate() throws {
        let generated = FilterCatalog.markdown()
        if ProcessInfo.processInfo.environment["LUX_UPDATE_CATALOG"] == "1" {
            try generated.write(toFile: Self.path, atomically: true, encoding: .utf8)
        }
        let committed = (try? String(contentsOfFile: Self.path, encoding: .utf8)) ?? ""
        #expect(
            committed == generated, "CATALOG.md is stale: run LUX_UPDATE_CATALOG=1 swift test --filter CatalogTests")
    }

    @Test("the catalogue lists the 180 classic names and the 4 new ones, each once (181 distinct names)")
    func names() {
        #expect(FilterCatalog.classicNames.count == 180)
        #expect(Set(FilterCatalog.classicNames).count == 180)
        #expect(FilterCatalog.newNames.count == 4)
        let rows = FilterCatalog.markdown().split(separator: "\n").filter {
            $0.hasPrefix("| ") && !$0.hasPrefix("| Filter")
        }
        let listed = rows.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) }
        #expect(Set(listed).count == listed.count)
        let names = listed.map { $0.replacingOccurrences(of: " (new)", with: "") }
        #expect(Set(names).isSuperset(of: FilterCatalog.classicNames + FilterCatalog.newNames))
        #expect(Set(FilterCatalog.classicNames + FilterCatalog.newNames).count == 181)
        // Every built-in filter with a catalogue name is found under that name.
        for name in FilterCatalog.classicNames + FilterCatalog.newNames
        where FilterRegistry.builtIn.names.contains(name) {
            #expect((try? FilterRegistry.builtIn.descriptor(named: "CI" + name))?.name == name)
        }
    }
}
