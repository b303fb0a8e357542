import Foundation
import Hummingbird

/// Admits a request only when it may reach the studio: with the access token when one is set, and, on loopback,
/// only when addressed to a loopback host name (a page of another site cannot rebind its name to 127.0.0.1).
///
/// The token may come as `Authorization: Bearer <token>`, as the `token` query parameter (the first page load and
/// the WebSocket, which cannot send headers from a browser) or as the `lux_studio_token` cookie set by an admitted
/// request, so a browser opened on `http://host:port/?token=T` keeps working.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token requests must carry, or `nil`.
    let token: String?
    /// Whether the server is bound to loopback.
    let isLoopback: Bool

    static var cookieName: String { "lux_studio_token" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if isLoopback, let authority = request.head.authority, !StudioConfiguration.isLoopback(Self.hostName(authority))
        {
            throw HTTPError(.forbidden, message: "the studio answers requests to localhost only")
        }
        guard let token else { return try await next(request, context) }
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let query = request.uri.queryParameters["token"].map(String.init)
        let cookie = request.cookies[Self.cookieName]?.value
        guard [bearer, query, cookie].contains(where: { $0.map { Self.equal($0, token) } ?? false }) else {
            throw HTTPError(.unauthorized, message: "this studio needs its access token (?token=...)")
        }
        var response = try await next(request, context)
        if query != nil, cookie == nil {
            response.setCookie(
                Cookie(name: Self.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// The host of an `authority` (`host:port`, `[v6]:port`).
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end])
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// Compares two tokens in time independent of where they differ.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
