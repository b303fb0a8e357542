import Foundation

extension String {
    /// The text escaped for HTML content and attribute values.
    var htmlEscaped: String {
        var out = ""
        out.reserveCapacity(count)
        for c in self {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A relative file name as a URL path (each segment percent-encoded), for `href` and `src`.
    var urlPathEncoded: String {
        split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"]))
                ?? String($0)
        }.joined(separator: "/")
    }
}
