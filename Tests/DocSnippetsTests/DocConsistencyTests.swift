import Foundation
import Testing

/// Keeps the documentation honest: every ```swift block of the DocC catalogues and the README is compiled (and
/// run) by this target, every double-backtick symbol link names a declaration that exists, every `<doc:>` link
/// names an article, and every Lux name in the porting table is referenced by compiled code.
@Suite struct DocConsistencyTests {
    @Test func everySwiftSnippetIsCompiledByThisTarget() throws {
        let compiled = normalised(try snippetSources().map { $0.text }.joined(separator: "\n"))
        var missing: [String] = []
        var count = 0
        for file in try markdownFiles() {
            for block in swiftBlocks(in: try String(contentsOfFile: file, encoding: .utf8)) {
                count += 1
                // `import` lines go at the top of the test file, outside the function that holds the snippet.
                let body = block.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
                    .joined(separator: "\n")
                if !compiled.contains(normalised(body)) {
                    missing.append("\(relative(file)): ```swift block starting \(block.prefix(60).debugDescription)")
                }
            }
        }
        #expect(count >= 20, "found only \(count) snippets: is the extraction broken?")
        #expect(missing.isEmpty, "snippets not compiled by Tests/DocSnippetsTests:\n\(missing.joined(separator: "\n"))")
    }

    @Test func symbolLinksNameDeclarationsThatExist() throws {
        let names = try declaredNames()
        #expect(names.contains("PhotoOutput") && names.contains("capturePhoto") && names.contains("init"))
        var unknown: [String] = []
        var count = 0
        for file in try markdownFiles() where file.contains(".docc/") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for link in try matches(of: #"``([^`]+)``"#, in: withoutCodeBlocks(text)) {
                count += 1
                for component in link.split(separator: "/") {
                    var name = String(component)
                    if let paren = name.firstIndex(of: "(") { name = String(name[..<paren]) }
                    if let dash = name.firstIndex(of: "-") { name = String(name[..<dash]) }  // DocC disambiguators
                    if !names.contains(name) { unknown.append("\(relative(file)): ``\(link)`` (\(name))") }
                }
            }
        }
        #expect(count > 100)
        #expect(unknown.isEmpty, "symbol links to unknown names:\n\(unknown.joined(separator: "\n"))")
    }

    @Test func articleLinksNameArticlesOfTheSameCatalogue() throws {
        var broken: [String] = []
        for file in try markdownFiles() where file.contains(".docc/") {
            let folder = (file as NSString).deletingLastPathComponent
            let articles = Set(
                try FileManager.default.contentsOfDirectory(atPath: folder).map {
                    ($0 as NSString).deletingPathExtension
                })
            for link in try matches(of: #"<doc:([A-Za-z0-9_-]+)>"#, in: String(contentsOfFile: file, encoding: .utf8)) {
                if !articles.contains(link) { broken.append("\(relative(file)): <doc:\(link)>") }
            }
        }
        #expect(broken.isEmpty, "broken article links:\n\(broken.joined(separator: "\n"))")
    }

    @Test func everyLuxNameInThePortingTableIsReferencedByCompiledCode() throws {
        let table = try String(
            contentsOfFile: root + "/Sources/Lux/Documentation.docc/PortingFromApple.md", encoding: .utf8)
        let source = try String(
            contentsOfFile: root + "/Tests/DocSnippetsTests/PortingTableSymbols.swift", encoding: .utf8)
        // Only code counts, not comments.
        let code = source.split(separator: "\n").map { line in
            line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
        var rows = 0
        var missing: [String] = []
        for line in table.split(separator: "\n")
        where line.hasPrefix("|") && !line.hasPrefix("|-") && !line.hasPrefix("| Apple") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { continue }
            rows += 1
            let names = try matches(of: "`([^`]+)`", in: cells[2])
            if names.isEmpty { missing.append("row without a Lux name: \(line)") }
            for name in names {
                // `T.method()` is referenced as `T.method` (an unapplied method reference has no parentheses).
                let spelled = name.hasSuffix("()") ? String(name.dropLast(2)) : name
                let pattern =
                    "(?<![A-Za-z0-9_.])" + NSRegularExpression.escapedPattern(for: spelled) + "(?![A-Za-z0-9_(])"
                if code.range(of: pattern, options: .regularExpression) == nil { missing.append(name) }
            }
        }
        #expect(rows >= 60, "only \(rows) rows in the porting table")
        #expect(
            missing.isEmpty,
            "Lux names in PortingFromApple.md not referenced by PortingTableSymbols.swift:\n\(missing.joined(separator: "\n"))"
        )
    }
}

// MARK: Helpers

/// The package root (…/Tests/DocSnippetsTests/DocConsistencyTests.swift → package root).
let root: String = {
    var path = #filePath
    for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }
    return path
}()

private func relative(_ path: String) -> String {
    path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
}

/// README.md and every `.md` of every DocC catalogue under Sources.
func markdownFiles() throws -> [String] {
    var files = [root + "/README.md"]
    for module in try FileManager.default.contentsOfDirectory(atPath: root + "/Sources").sorted() {
        let docc = root + "/Sources/\(module)/Documentation.docc"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: docc) else { continue }
        files += entries.filter { $0.hasSuffix(".md") }.sorted().map { docc + "/" + $0 }
    }
    return files
}

func snippetSources() throws -> [(path: String, text: String)] {
    let folder = root + "/Tests/DocSnippetsTests"
    return try FileManager.default.contentsOfDirectory(atPath: folder).filter {
        $0.hasSuffix(".swift") && $0 != "DocConsistencyTests.swift"
    }
    .sorted().map { (folder + "/" + $0, try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) }
}

/// The contents of the ```swift fenced blocks.
func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]? = nil
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if current == nil, trimmed == "```swift" {
            current = []
        } else if current != nil, trimmed == "```" {
            blocks.append(current!.joined(separator: "\n"))
            current = nil
        } else if current != nil {
            current!.append(line)
        }
    }
    return blocks
}

/// The text without fenced blocks and single-backtick code spans that are not symbol links.
private func withoutCodeBlocks(_ markdown: String) -> String {
    var out: [Substring] = []
    var inBlock = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
            inBlock.toggle()
            continue
        }
        if !inBlock { out.append(line) }
    }
    return out.joined(separator: "\n")
}

/// Whitespace runs collapsed to one space.
func normalised(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
}

/// The first capture group of every match.
func matches(of pattern: String, in text: String) throws -> [String] {
    let regex = try NSRegularExpression(pattern: pattern)
    let ns = text as NSString
    return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
        ns.substring(with: $0.range(at: 1))
    }
}

/// Every name declared in Sources (types, members, cases, associated types), plus `init`, `subscript` and the
/// module names: a cheap stand-in for DocC's symbol graph.
func declaredNames() throws -> Set<String> {
    var names: Set<String> = ["init", "subscript"]
    let sources = root + "/Sources"
    let modules = try FileManager.default.contentsOfDirectory(atPath: sources)
    names.formUnion(modules)
    let declaration =
        #"\b(?:struct|class|enum|protocol|actor|typealias|associatedtype|func|var|let)\s+`?([A-Za-z_][A-Za-z0-9_]*)"#
    guard let walker = FileManager.default.enumerator(atPath: sources) else { return names }
    for case let path as String in walker where path.hasSuffix(".swift") {
        let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
        names.formUnion(try matches(of: declaration, in: text))
        // `case a, b(Int), c(label: Int)` declares a, b and c (`case .a:` and `case let` in a switch declare nothing).
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("case ") || trimmed.hasPrefix("indirect case ") else { continue }
            var list = trimmed[trimmed.range(of: "case ")!.upperBound...]
            if let comment = list.range(of: "//") { list = list[..<comment.lowerBound] }
            var depth = 0
            var pieces = [""]
            for ch in list {
                if ch == "(" { depth += 1 } else if ch == ")" { depth -= 1 }
                if ch == ",", depth == 0 { pieces.append("") } else { pieces[pieces.count - 1].append(ch) }
            }
            // A case whose payload continues on the next lines leaves its last piece open: its name is complete.
            for piece in pieces {
                let name = piece.trimmingCharacters(in: .whitespaces).prefix {
                    $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`"
                }
                if !name.isEmpty { names.insert(name.replacingOccurrences(of: "`", with: "")) }
            }
        }
    }
    return names
}
