import ServiceLifecycle

/// The service that ends the camera session and deletes the Live Photo previews when the studio's server stops,
/// however it is run.
///
/// It is one of the application's services: ``Studio/run(onReady:)``, a caller's own `ServiceGroup` and
/// Hummingbird's test frameworks all run it beside the server. It waits for the group's graceful shutdown (or its
/// cancellation); the server, added after it, shuts down first, and the camera then stops: a capture in progress
/// finishes (its files are renamed into place whole) and no partial file is left.
struct StudioShutdown: Service {
    let camera: StudioCamera
    let live: LiveEditor

    func run() async {
        // Returns at the graceful shutdown, or throws when the group is cancelled: the studio stops either way.
        try? await gracefulShutdown()
        await camera.stop()
        await live.removePreviews()
    }
}
