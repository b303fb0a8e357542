public import Foundation
public import Hummingbird
import HummingbirdWebSocket
import LuxCodecs
import LuxIO
import LuxInfo
import LuxLive
import LuxPixels
import LuxRAW

/// The studio server: the front end, the gallery's files and the camera's WebSocket (`lux studio`).
///
/// ```swift
/// let studio = try Studio(configuration: StudioConfiguration(captureFolder: URL(fileURLWithPath: "captures")))
/// try await studio.run { url in print("open \(url)") }
/// ```
///
/// Routes: `/` and `/static/<file>` (the front end), `/api/gallery` (the items as JSON), `/api/file/<name>`,
/// `/api/thumbnail/<name>` and `/api/info/<name>` (its ``FileReport``, as `lux info --json`) for a gallery name
/// (`<folder>/<path>`), `/api/camera` (the camera's control ranges), `/api/cameras` (the V4L2 cameras one may
/// choose instead of the simulated one, the unusable video nodes and the active camera) and the WebSocket `/ws/camera` (viewfinder
/// frames as binary JPEG messages, read-outs, events and errors as JSON text; commands as ``CameraCommand`` JSON).
/// The Live Photo editor: `GET /api/live/<still>` (the pair's timeline), `POST /api/live-preview/<still>` (a
/// playback preview of the JSON edit in the body, answered with the addresses of its still and movie under
/// `/api/live-play/`) and `POST /api/live-save/<still>` (the edited pair saved into the capture folder, answered with
/// its gallery names); the edit's keys are `chain`, `photoChain`, `square`, `crop`, `slideCrop`, `watermark`,
/// `stabilize`, `autoTrim`, `trim` (`[start, end]` seconds), `keyPhoto` (seconds) and `volume` (0…1).
public struct Studio: Sendable {
    /// The configuration the server runs with.
    public let configuration: StudioConfiguration
    let gallery: GalleryFolders
    let camera: StudioCamera
    let development = RawDevelopment()
    let lab = FilterLab()
    let live = LiveEditor()
    let upload: GalleryUpload

    /// Checks the configuration and prepares the camera (started on first use).
    ///
    /// - Throws: ``StudioError`` for a configuration ``StudioConfiguration/validate()`` refuses or an unknown scene.
    public init(configuration: StudioConfiguration) throws(StudioError) {
        try configuration.validate()
        self.configuration = configuration
        gallery = GalleryFolders(captureFolder: configuration.captureFolder, folders: configuration.folders)
        upload = GalleryUpload(folder: configuration.captureFolder, limit: configuration.maxUploadBytes)
        camera = try StudioCamera(
            scene: configuration.scene, sensor: configuration.sensor, folder: configuration.captureFolder,
            viewfinderSize: configuration.viewfinderSize)
    }

    /// The router of every route, behind the access check.
    func router() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.middlewares.add(AccessMiddleware(token: configuration.token, isLoopback: configuration.isLoopback))
        router.get("/") { _, _ in try Self.frontEndFile("index.html") }
        router.get("/static/{name}") { _, context in try Self.frontEndFile(try context.parameters.require("name")) }
        router.get("/api/gallery") { [gallery] _, _ in
            Self.json(try JSONEncoder().encode(gallery.items()))
        }
        router.get("/api/camera") { [camera] _, _ in
            Self.json(Data(StudioCamera.json(camera.ranges).utf8))
        }
        router.get("/api/cameras") { [camera] _, _ in
            var list = StudioCamera.cameraList()
            list["active"] = camera.devicePath ?? "simulated"
            return Self.json(Data(StudioCamera.json(list).utf8))
        }
        router.get("/api/file/**") { [gallery] request, context in
            let url = try Self.galleryFile(gallery, context)
            return Self.fileResponse(
                try Data(contentsOf: url), type: Self.mediaType(of: url), cacheControl: "no-cache", request: request)
        }
        router.get("/api/thumbnail/**") { [gallery, development] request, context in
            let url = try Self.galleryFile(gallery, context)
            let size = request.uri.queryParameters["size"].flatMap { Int($0) } ?? 256
            let jpeg = try await Self.thumbnail(of: url, side: min(max(size, 16), 1024), development: development)
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
        router.get("/api/info/**") { [gallery] _, context in
            let url = try Self.galleryFile(gallery, context)
            let name = context.parameters.getCatchAll().joined(separator: "/")
            return Self.json(try Self.report(of: url, named: name.removingPercentEncoding ?? name))
        }
        let limit = configuration.maxMessageBytes
        router.get("/api/develop/**") { [gallery, development] _, context in
            let url = try Self.galleryFile(gallery, context)
            let text = try await Self.answer { () async throws(StudioError) in try await development.defaults(for: url)
            }
            return Self.json(Data(text.utf8))
        }
        router.post("/api/develop/**") { [gallery, development] request, context in
            let url = try Self.galleryFile(gallery, context)
            let adjustments = try await Self.adjustments(request, limit: limit)
            let jpeg = try await Self.answer { () async throws(StudioError) in
                try await development.preview(of: url, adjustments: adjustments, side: Self.previewSide(request))
            }
            return Self.previewResponse(jpeg)
        }
        router.post("/api/export/**") { [gallery, development, folder = configuration.captureFolder] request, context in
            let url = try Self.galleryFile(gallery, context)
            let adjustments = try await Self.adjustments(request, limit: limit)
            let format = request.uri.queryParameters["format"].map(String.init) ?? "jpeg"
            let written = try await Self.answer { () async throws(StudioError) in
                try await development.export(url, adjustments: adjustments, format: format, to: folder)
            }
            return Self.writtenResponse(written, gallery)
        }
        router.post("/api/upload/{name}") { [upload] request, context in
            let raw = try context.parameters.require("name")
            return await Self.uploadResponse(upload, request, name: raw.removingPercentEncoding ?? raw)
        }
        router.get("/api/filters") { _, _ in
            Self.json(try JSONSerialization.data(withJSONObject: FilterLab.catalog(), options: [.sortedKeys]))
        }
        router.post("/api/filter/**") { [gallery, lab] request, context in
            let url = try Self.galleryFile(gallery, context)
            let chain = try await Self.chain(request, limit: limit)
            let jpeg = try await Self.answer { () async throws(StudioError) in
                try await lab.preview(of: url, chain: chain, side: Self.previewSide(request))
            }
            return Self.previewResponse(jpeg)
        }
        router.post("/api/filter-export/**") { [gallery, lab, folder = configuration.captureFolder] request, context in
            let url = try Self.galleryFile(gallery, context)
            let chain = try await Self.chain(request, limit: limit)
            let format = request.uri.queryParameters["format"].map(String.init) ?? "jpeg"
            let written = try await Self.answer { () async throws(StudioError) in
                try await lab.export(url, chain: chain, format: format, to: folder)
            }
            return Self.writtenResponse(written, gallery)
        }
        router.get("/api/live/**") { [gallery] _, context in
            let still = try Self.galleryFile(gallery, context)
            let text = try await Self.answer { () async throws(StudioError) in
                try LiveEditor.timeline(of: try LiveEditor.livePhoto(still, gallery: gallery))
            }
            return Self.json(Data(text.utf8))
        }
        router.post("/api/live-preview/**") { [gallery, live] request, context in
            let still = try Self.galleryFile(gallery, context)
            let edit = try await Self.liveEdit(request, limit: limit)
            let id = try await Self.answer { () async throws(StudioError) in
                let pair = try LiveEditor.livePhoto(still, gallery: gallery)
                return try await live.preview(
                    of: pair, edit: edit, side: Self.previewSide(request, default: 480), gallery: gallery)
            }
            return Self.json(
                Data(
                    StudioCamera.json(["still": "/api/live-play/\(id)/still", "movie": "/api/live-play/\(id)/movie"])
                        .utf8))
        }
        router.get("/api/live-play/{id}/{part}") { [live] request, context in
            let id = try context.parameters.require("id")
            let part = try context.parameters.require("part")
            guard let url = await live.previewFile(id, part: part), let bytes = try? Data(contentsOf: url) else {
                throw HTTPError(.notFound)
            }
            return Self.fileResponse(bytes, type: Self.mediaType(of: url), cacheControl: "no-store", request: request)
        }
        router.post("/api/live-save/**") { [gallery, live, folder = configuration.captureFolder] request, context in
            let still = try Self.galleryFile(gallery, context)
            let edit = try await Self.liveEdit(request, limit: limit)
            let saved = try await Self.answer { () async throws(StudioError) in
                let pair = try LiveEditor.livePhoto(still, gallery: gallery)
                return try await live.save(pair, edit: edit, to: folder, gallery: gallery)
            }
            let names = [saved.still, saved.movie].map { gallery.name(of: $0, inFolder: 0) ?? $0.lastPathComponent }
            return Self.json(Data(StudioCamera.json(["file": names[0], "movie": names[1]]).utf8))
        }
        router.ws("/ws/camera") { [camera] inbound, outbound, _ in
            try await CameraSocket(camera: camera, maxMessageBytes: limit).run(inbound: inbound, outbound: outbound)
        }
        return router
    }

    /// The application: the router on an HTTP/1 server with WebSocket upgrades, bound as configured.
    ///
    /// Stopping it (a graceful shutdown or a cancellation of its service group) ends the camera session: a capture in
    /// progress finishes first and no partial file is left. The session cannot be started again: make a new
    /// ``Studio`` to serve again.
    ///
    /// - Parameter onReady: Called with the studio's address once the server listens (the port is the real one
    ///   when the configuration asked for port 0).
    public func application(onReady: @escaping @Sendable (URL) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = router()
        let host = configuration.host
        let token = configuration.token
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router,
                configuration: .init(ws: .init(maxFrameSize: max(configuration.maxMessageBytes, 1 << 16)))
            ),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "lux studio"),
            services: [StudioShutdown(camera: camera, live: live)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                let query = token.map { "?token=\($0)" } ?? ""
                if let url = URL(string: "http://\(shown):\(port)/\(query)") { await onReady(url) }
            })
    }

    /// Serves until SIGINT or SIGTERM, then stops the camera session (a capture in progress finishes first; no
    /// partial file is left).
    public func run(onReady: @escaping @Sendable (URL) async -> Void = { _ in }) async throws {
        try await application(onReady: onReady).runService()
    }

    // MARK: Responses

    static func frontEndFile(_ name: String) throws -> Response {
        guard let bytes = FrontEnd.files[name] else { throw HTTPError(.notFound) }
        return Response(
            status: .ok,
            headers: [
                .contentType: FrontEnd.contentType(of: name), .cacheControl: "no-cache",
                .contentSecurityPolicy:
                    "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'",
                .init("X-Content-Type-Options")!: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The RAW adjustments of a request's JSON body (missing keys keep their defaults).
    static func adjustments(_ request: Request, limit: Int) async throws -> RAWDeveloper.Adjustments {
        let body = try await request.body.collect(upTo: limit)
        guard body.readableBytes > 0 else { return RAWDeveloper.Adjustments() }
        do {
            return try JSONDecoder().decode(RAWDeveloper.Adjustments.self, from: Data(body.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "the body must be RAW adjustments as JSON: \(error)")
        }
    }

    /// The Live Photo edit of a request's JSON body (an empty body changes nothing).
    static func liveEdit(_ request: Request, limit: Int) async throws -> LiveEdit {
        let body = try await request.body.collect(upTo: limit)
        guard body.readableBytes > 0 else { return LiveEdit() }
        do {
            return try JSONDecoder().decode(LiveEdit.self, from: Data(body.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "the body must be a Live Photo edit as JSON: \(error)")
        }
    }

    /// The filter chain of a request's body: the text `lux filter --chain` takes.
    static func chain(_ request: Request, limit: Int) async throws -> String {
        let body = try await request.body.collect(upTo: limit)
        return String(decoding: body.readableBytesView, as: UTF8.self)
    }

    /// Runs a studio operation, turning its error into a 422 answer that names it.
    static func answer<T>(_ body: () async throws(StudioError) -> T) async throws -> T {
        do { return try await body() } catch { throw HTTPError(.unprocessableContent, message: "\(error)") }
    }

    static func json(_ data: Data) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The gallery file a catch-all route names, or 404 for anything outside the gallery.
    static func galleryFile(_ gallery: GalleryFolders, _ context: some RequestContext) throws -> URL {
        let name = context.parameters.getCatchAll().joined(separator: "/")
        do {
            return try gallery.file(named: name)
        } catch {
            throw HTTPError(.notFound, message: "\(error)")
        }
    }

    static func mediaType(of url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "heic", "heif": "image/heic"
        case "avif": "image/avif"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "tif", "tiff": "image/tiff"
        case "mov": "video/quicktime"
        default: "application/octet-stream"
        }
    }

    /// The long side a preview request asks for (`?size=`, default `default`), kept within 64…4096.
    static func previewSide(_ request: Request, default: Int = 1024) -> Int {
        let side = request.uri.queryParameters["size"].flatMap { Int($0) } ?? `default`
        return min(max(side, 64), 4096)
    }

    /// A preview JPEG, never cached (it changes with every slider move).
    static func previewResponse(_ jpeg: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
    }

    /// Saves an upload into the capture folder: 201 with `{"file": name}` (its gallery name), or the refusal as
    /// `{"error": kind, "message": text}` with 400 (a bad name), 413 (too large), 415 (not an image, RAW file or
    /// movie, or not the format its name says) or 500 (cannot be written).
    static func uploadResponse(_ upload: GalleryUpload, _ request: Request, name: String) async -> Response {
        do throws(StudioError) {
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > upload.limit {
                throw .uploadTooLarge(name: name, limit: upload.limit)
            }
            let saved = try await upload.save(request.body, named: name)
            return jsonResponse(.created, ["file": "0/" + saved.lastPathComponent])
        } catch {
            let (kind, status): (String, HTTPResponse.Status) =
                switch error {
                case .uploadTooLarge: ("tooLarge", .contentTooLarge)
                case .unsupportedUpload: ("unsupportedType", .unsupportedMediaType)
                case .invalidUploadName: ("invalidName", .badRequest)
                default: ("writeFailed", .internalServerError)
                }
            return jsonResponse(status, ["error": kind, "message": error.description])
        }
    }

    /// A small JSON object answer that is never cached.
    static func jsonResponse(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: StudioCamera.json(object))))
    }

    /// The gallery name of a file an export wrote, as `{"file": name}`.
    static func writtenResponse(_ written: URL, _ gallery: GalleryFolders) -> Response {
        let name = gallery.name(of: written, inFolder: 0) ?? written.lastPathComponent
        return json(Data(StudioCamera.json(["file": name]).utf8))
    }

    /// A JPEG thumbnail fitting `side` × `side` through the fast thumbnail path, or, for a RAW file without an
    /// embedded preview that large (the camera's own DNGs), a binned development at its as-shot settings.
    static func thumbnail(of url: URL, side: Int, development: RawDevelopment) async throws -> [UInt8] {
        do {
            let thumbnail = try Thumbnail(contentsOf: url, fitting: (side, side), colorSpace: .sRGB)
            return try JPEG.encode(thumbnail.pixels)
        } catch CodecError.missingPixelData {
            return try await answer { () async throws(StudioError) in
                try await development.preview(of: url, adjustments: RAWDeveloper.Adjustments(), side: side)
            }
        } catch {
            throw HTTPError(.unprocessableContent, message: "\(url.lastPathComponent): \(error)")
        }
    }

    /// The `lux info` report of a gallery file as JSON, naming it and its Live Photo partner by their gallery names
    /// (the browser never sees a server path).
    static func report(of url: URL, named name: String) throws -> Data {
        var report: FileReport
        do { report = try FileReport(path: url.path) } catch {
            throw HTTPError(.unprocessableContent, message: "\(url.lastPathComponent): \(error)")
        }
        let folder = name.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        report.file = name
        if let partner = report.livePhoto?.partner {
            report.livePhoto?.partner = folder + "/" + URL(fileURLWithPath: partner).lastPathComponent
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(report)
    }
}
