import LuxPixels

/// A pipeline of filters written as text, as the CLI's `--chain` takes it.
///
/// For example:
///
/// ```
/// SepiaTone intensity=0.8 | GaussianBlur radius=4 | Crop rectangle=0,0,640,480
/// ```
///
/// Steps are separated by `|`; each step is a filter name followed by `key=value` pairs. Values are
/// typed by the parameter they go to: numbers (`0.8`), vectors and points (`x,y[,z,w]`), rectangles
/// (`x,y,width,height`), colours (`r,g,b[,a]` in sRGB, `#rrggbb[aa]`, or `white`, `black`, `clear`,
/// `red`, `green`, `blue`, `gray`), transforms (`a,b,c,d,tx,ty`), booleans (`true`/`false`), strings,
/// and images as file paths (loaded by the caller). Quote values containing spaces with `'` or `"`.
/// Each step receives the previous step's output as its `image` parameter.
public struct FilterChain: Sendable, CustomStringConvertible {
    /// One filter of the chain, with its arguments as written.
    public struct Step: Sendable, Hashable {
        /// The filter's name.
        public var name: String
        /// `key=value` pairs in order, values unparsed.
        public var arguments: [Argument]

        /// Creates a step.
        public init(name: String, arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// A `key=value` pair as written.
    public struct Argument: Sendable, Hashable {
        /// The parameter name.
        public var key: String
        /// The value text.
        public var value: String

        /// Creates an argument.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The steps in order.
    public var steps: [Step]

    /// Parses chain text.
    ///
    /// - Throws: ``FilterError/syntax(_:chain:)`` saying where the text is malformed.
    public init(parsing text: String) throws(FilterError) {
        var steps: [Step] = []
        for (index, stepText) in try Self.split(text).enumerated() {
            let tokens = try Self.tokens(stepText, chain: text)
            guard let name = tokens.first else { throw .syntax("step \(index + 1) is empty", chain: text) }
            guard !name.contains("=") else {
                throw .syntax("step \(index + 1) starts with '\(name)' instead of a filter name", chain: text)
            }
            var args: [Argument] = []
            for t in tokens.dropFirst() {
                guard let eq = t.firstIndex(of: "="), eq != t.startIndex else {
                    throw .syntax("'\(t)' in step \(index + 1) (\(name)) is not key=value", chain: text)
                }
                args.append(Argument(key: String(t[..<eq]), value: String(t[t.index(after: eq)...])))
            }
            steps.append(Step(name: name, arguments: args))
        }
        guard !steps.isEmpty else { throw .syntax("no filters", chain: text) }
        self.steps = steps
    }

    /// Splits on `|` outside quotes.
    private static func split(_ text: String) throws(FilterError) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character? = nil
        for c in text {
            if let q = quote {
                if c == q { quote = nil }
                current.append(c)
            } else if c == "'" || c == "\"" {
                quote = c
                current.append(c)
            } else if c == "|" {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if quote != nil { throw .syntax("unterminated quote", chain: text) }
        parts.append(current)
        return parts
    }

    /// Splits on whitespace outside quotes, removing the quotes.
    private static func tokens(_ text: String, chain: String) throws(FilterError) -> [String] {
        var out: [String] = []
        var current = ""
        var quote: Character? = nil
        var inToken = false
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inToken = true
            } else if c == " " || c == "\t" || c == "\n" {
                if inToken { out.append(current) }
                current = ""
                inToken = false
            } else {
                current.append(c)
                inToken = true
            }
        }
        if inToken { out.append(current) }
        return out
    }

    /// Applies the chain to `image` (or, when `image` is `nil`, starts from the first step's output, for example
    /// a generator).
    ///
    /// - Parameters:
    ///   - registry: Where filter names are looked up.
    ///   - loadImage: Loads image parameters given as paths.
    /// - Throws: ``FilterError`` (unknown names, bad values with what is accepted, unloadable images).
    public func apply(
        to image: Image?, registry: FilterRegistry, loadImage: (String) throws -> Image
    ) throws(FilterError) -> Image {
        var current = image
        for step in steps {
            let descriptor = try registry.descriptor(named: step.name)
            var values: [String: FilterValue] = [:]
            for arg in step.arguments {
                guard let p = FilterArguments.parameter(arg.key, in: descriptor) else {
                    throw .unknownParameter(
                        filter: descriptor.name, parameter: arg.key, accepted: descriptor.parameters.map(\.name))
                }
                values[p.name] = try Self.value(arg.value, for: p, filter: descriptor.name, loadImage: loadImage)
            }
            if descriptor.takesImage, values["image"] == nil, let current { values["image"] = .image(current) }
            current = try registry.makeFilter(descriptor.name, parameters: values).outputImage
        }
        return current ?? .empty
    }

    /// Converts text to the value a parameter takes.
    public static func value(
        _ text: String, for p: FilterParameter, filter: String, loadImage: (String) throws -> Image
    ) throws(FilterError) -> FilterValue {
        func wrong() -> FilterError {
            .wrongType(filter: filter, parameter: p.name, expected: "\(p.kind)", got: "'\(text)'")
        }
        func numbers() throws(FilterError) -> [Double] {
            var out: [Double] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let d = Double(part.trimmingSpaces), d.isFinite else { throw wrong() }
                out.append(d)
            }
            return out
        }
        switch p.kind {
        case .image:
            do { return .image(try loadImage(text)) } catch let e as FilterError { throw e } catch {
                throw .imageLoad(path: text, reason: "\(error)")
            }
        case .number, .integer:
            guard let d = Double(text), d.isFinite else { throw wrong() }
            return .number(d)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1", "on": return .boolean(true)
            case "false", "no", "0", "off": return .boolean(false)
            default: throw wrong()
            }
        case .vector, .numbers, .point, .rect, .transform:
            return .vector(try numbers())
        case .color:
            if let c = Self.namedColor(text) { return .color(c) }
            if text.hasPrefix("#") {
                guard let c = Self.hexColor(text) else { throw wrong() }
                return .color(c)
            }
            let v = try numbers()
            guard v.count == 3 || v.count == 4 else { throw wrong() }
            return .color(Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1))
        case .string:
            return .string(text)
        case .data:
            return .data(Array(text.utf8))
        }
    }

    static func namedColor(_ name: String) -> Color? {
        switch name.lowercased() {
        case "white": .white
        case "black": .black
        case "clear", "transparent": .clear
        case "red": .red
        case "green": .green
        case "blue": .blue
        case "gray", "grey": Color(gray: 0.5)
        default: nil
        }
    }

    static func hexColor(_ text: String) -> Color? {
        let hex = text.dropFirst()
        guard hex.count == 6 || hex.count == 8, let v = UInt32(hex, radix: 16) else { return nil }
        let bytes = hex.count == 8 ? [v >> 24, v >> 16, v >> 8, v] : [v >> 16, v >> 8, v, 255]
        let c = bytes.map { Double($0 & 0xFF) / 255 }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }

    public var description: String {
        steps.map { s in ([s.name] + s.arguments.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
            .joined(separator: " | ")
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
