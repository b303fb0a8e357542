import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import LuxStudio
import LuxTestSupport
import Testing

/// Choosing the camera: the machine's V4L2 cameras listed, the simulated camera the default, a node that is not a
/// listed camera refused.
@Suite(.serialized) struct CameraChoiceTests {
    static func object(_ body: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]) ?? [:]
    }

    @Test(
        "/api/cameras lists every /dev/video* node, as a camera or as unusable with a reason; the simulated is active")
    func listing() async throws {
        let (studio, folder) = try CameraSocketTests().makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The oracle: the video nodes the kernel shows in /dev (none on a machine without cameras).
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
            .filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }.map { "/dev/" + $0 }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: "/api/cameras", method: .get) { response in
                #expect(response.status == .ok)
                let list = Self.object(response.body)
                #expect(list["active"] as? String == "simulated")
                let cameras = (list["cameras"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
                let unusable = list["unusable"] as? [[String: Any]] ?? []
                #expect(Set(cameras + unusable.compactMap { $0["path"] as? String }) == Set(nodes))
                #expect(unusable.allSatisfy { ($0["reason"] as? String)?.isEmpty == false })
            }
            try await client.execute(uri: "/api/camera", method: .get) { response in
                #expect(Self.object(response.body)["device"] as? String == "simulated")
            }
        }
    }

    @Test("a node that is not a listed camera is refused, naming it; the simulated camera stays and keeps streaming")
    func refusesUnknownNode() async throws {
        let (studio, folder) = try CameraSocketTests().makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.live) { client in
            try await client.ws("/ws/camera") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"device","path":"/dev/video99"}"#))
                try await outbound.write(.text(#"{"type":"device","path":"/etc/passwd"}"#))
                try await outbound.write(.text(#"{"type":"device","path":"simulated"}"#))
                var errors: [String] = []
                var done = false
                var framesAfter = 0
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    switch message {
                    case .text(let text):
                        let o = CameraSocketTests.object(text)
                        if o["type"] as? String == "error" { errors.append(o["message"] as? String ?? "") }
                        if o["type"] as? String == "done" { done = true }
                    case .binary: if done { framesAfter += 1 }
                    }
                    if done && framesAfter >= 2 { break }
                }
                #expect(errors.count == 2)
                #expect(errors.first?.contains("/dev/video99: not a V4L2 camera of this machine") == true, "\(errors)")
                #expect(errors.last?.contains("/etc/passwd") == true, "\(errors)")
            }
        }
    }

    @Test(
        "choosing /dev/video0 streams its frames and gives its ranges", .tags(.hardware), .cameraAttached)
    func chooseV4L2() async throws {
        let (studio, folder) = try CameraSocketTests().makeStudio()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await studio.application().test(.live) { client in
            try await client.ws("/ws/camera") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"device","path":"/dev/video0"}"#))
                var done = false
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    if case .text(let text) = message {
                        let o = CameraSocketTests.object(text)
                        #expect(o["type"] as? String != "error", "\(o)")
                        if o["type"] as? String == "done" { done = true }
                    }
                    if done, case .binary = message { break }
                }
            }
            try await client.execute(uri: "/api/camera", method: .get) { response in
                #expect(Self.object(response.body)["device"] as? String == "/dev/video0")
            }
        }
    }
}
