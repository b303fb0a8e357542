import Foundation
import Hummingbird
import HummingbirdWebSocket

/// One browser's camera WebSocket: the viewfinder's JPEG frames (binary messages), the read-outs five times a
/// second, the answers to its commands (JSON text), and the commands it sends.
///
/// Every outgoing message takes the socket's turn, so a text message never lands between the frames of a binary
/// one. A malformed or refused command gets `{"type": "error", "message": ...}` and the socket stays open; a message
/// over the size limit closes it (the WebSocket "message too big").
struct CameraSocket {
    let camera: StudioCamera
    let maxMessageBytes: Int

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        try await camera.prepare()
        let turns = TurnLock()
        let send: @Sendable (String) async -> Void = { text in
            await turns.acquire()
            try? await outbound.write(.text(text))
            await turns.release()
        }
        await send(StudioCamera.json(["type": "hello", "ranges": camera.ranges]))
        let viewer = await camera.subscribe()
        let camera = self.camera
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await jpeg in viewer.frames {
                    await turns.acquire()
                    do {
                        try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                    } catch {
                        await turns.release()
                        return
                    }
                    await turns.release()
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    await send(StudioCamera.json(camera.readouts))
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            // Commands run in order in a task of their own, so the inbound loop keeps reading while a long capture
            // runs: the server's pings get their pongs and the socket is not closed as dead.
            let (commands, queue) = AsyncStream.makeStream(
                of: String?.self, bufferingPolicy: .bufferingOldest(Self.maxWaitingCommands))
            group.addTask {
                // A binary message is queued as nil, so the answers keep the messages' order.
                for await message in commands {
                    guard let text = message else {
                        await send(Self.error("commands are JSON text messages"))
                        continue
                    }
                    do {
                        let command = try CameraCommand(json: text)
                        try await camera.perform(command, report: send)
                        await send(StudioCamera.json(["type": "done", "command": text]))
                    } catch {
                        await send(Self.error("\(error)"))
                    }
                }
            }
            group.addTask {
                do {
                    for try await message in inbound.messages(maxSize: maxMessageBytes) {
                        let text: String? = if case .text(let text) = message { text } else { nil }
                        if case .dropped = queue.yield(text) {
                            await send(Self.error("too many commands waiting (\(Self.maxWaitingCommands))"))
                        }
                    }
                } catch {}
                queue.finish()
            }
            // The inbound loop ends when the browser goes away (and a capture in progress is cancelled: the
            // camera leaves no partial file): stop the others.
            await group.next()
            group.cancelAll()
        }
        await camera.unsubscribe(viewer.id)
    }

    /// How many commands may wait behind the one running before more are refused.
    static let maxWaitingCommands = 32

    static func error(_ message: String) -> String {
        StudioCamera.json(["type": "error", "message": message])
    }
}
