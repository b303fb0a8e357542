import Foundation
import LuxStudio
import Testing

@Suite struct StudioConfigurationTests {
    let folder = URL(fileURLWithPath: "/tmp")

    @Test(
        "loopback needs no token; any other address does",
        arguments: ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"])
    func loopbackHosts(host: String) throws {
        let configuration = StudioConfiguration(host: host, captureFolder: folder)
        #expect(configuration.isLoopback)
        try configuration.validate()
    }

    @Test("a non-loopback host without a token is refused", arguments: ["0.0.0.0", "192.0.2.7", "example.com", "::"])
    func publicHostsNeedToken(host: String) throws {
        let configuration = StudioConfiguration(host: host, captureFolder: folder)
        #expect(!configuration.isLoopback)
        #expect(throws: StudioError.tokenRequired(host: host)) { try configuration.validate() }
        try StudioConfiguration(host: host, token: "s3cret-token", captureFolder: folder).validate()
    }

    @Test("short or odd tokens, bad ports and missing folders are refused")
    func badSettings() {
        for token in ["short", "has space 1234", "naïve-token"] {
            #expect(throws: StudioError.self) {
                try StudioConfiguration(token: token, captureFolder: folder).validate()
            }
        }
        #expect(throws: StudioError.self) { try StudioConfiguration(port: 70000, captureFolder: folder).validate() }
        #expect(throws: StudioError.notAFolder("/nonexistent-lux-folder")) {
            try StudioConfiguration(captureFolder: folder, folders: [URL(fileURLWithPath: "/nonexistent-lux-folder")])
                .validate()
        }
    }
}
