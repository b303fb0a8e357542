import Foundation
import Hummingbird

extension Studio {
    /// A file's bytes as the answer to a GET, honouring a single `Range: bytes=…` request so a browser can seek in a
    /// movie (a `<video>` element cannot seek in a file served without byte ranges).
    ///
    /// Every answer says `Accept-Ranges: bytes`. A satisfiable range gets 206 with its `Content-Range`; a range
    /// starting past the end gets 416 with `Content-Range: bytes */<size>`; a header that is not one range of bytes
    /// (several ranges, another unit) is ignored, as RFC 9110 allows, and the whole file is sent.
    static func fileResponse(_ bytes: Data, type: String, cacheControl: String, request: Request) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: cacheControl, .acceptRanges: "bytes"]
        guard let header = request.headers[.range], let asked = byteRange(header, count: bytes.count) else {
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        guard let range = asked else {
            headers[.contentRange] = "bytes */\(bytes.count)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(bytes.count)"
        return Response(
            status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes[range])))
    }

    /// The bytes a `Range` header asks for in a file of `count` bytes: `nil` when the header is not one byte range
    /// (ignore it), `.some(nil)` when the range is not satisfiable, else the range (its end clamped to the file).
    static func byteRange(_ header: String, count: Int) -> Range<Int>?? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return nil }
        let parts = text.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            // A suffix: the last N bytes.
            guard let suffix = Int(parts[1]), suffix >= 0 else { return nil }
            return .some(suffix > 0 && count > 0 ? max(0, count - suffix)..<count : nil)
        }
        guard let start = Int(parts[0]), start >= 0 else { return nil }
        let end: Int
        if parts[1].isEmpty {
            end = count - 1
        } else {
            guard let last = Int(parts[1]), last >= start else { return nil }
            end = min(last, count - 1)
        }
        return .some(start < count ? start..<(end + 1) : nil)
    }
}
