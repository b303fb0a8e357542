import Foundation
import Hummingbird
import HummingbirdTesting
import LuxTestSupport

/// A headless Chromium driven through chromedriver's W3C WebDriver protocol, on loopback.
final class WebDriver {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let driver: Process
    let port: Int
    let session: String

    /// Starts chromedriver on a free loopback port and opens a headless Chromium session.
    init() async throws {
        let port = Int.random(in: 20_000..<40_000)
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: ExternalTool.path("chromedriver") ?? "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        self.port = port
        var ready = false
        for _ in 0..<100 where !ready {
            try await Task.sleep(for: .milliseconds(100))
            ready = (try? await Self.request(port: port, "/status", method: .get, body: nil)) != nil
        }
        guard ready else {
            Self.stop(driver)
            throw Failure(description: "chromedriver did not start on port \(port)")
        }
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": ExternalTool.path("chromium") ?? "/usr/bin/chromium",
                        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"],
                    ],
                    "goog:loggingPrefs": ["browser": "ALL"],
                ] as [String: Any]
            ]
        ]
        let answer = try await Self.request(port: port, "/session", method: .post, body: capabilities)
        guard let value = answer["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            Self.stop(driver)
            throw Failure(description: "no WebDriver session: \(answer)")
        }
        session = id
    }

    /// Ends the session and chromedriver.
    func quit() async {
        _ = try? await Self.request(port: port, "/session/\(session)", method: .delete, body: nil)
        Self.stop(driver)
    }

    /// Ends chromedriver with SIGKILL: a child of the test process inherits its blocked signals, so the SIGTERM of
    /// `Process.terminate()` stays pending and `waitUntilExit()` would wait forever.
    static func stop(_ driver: Process) {
        guard driver.isRunning else { return }
        kill(driver.processIdentifier, SIGKILL)
        driver.waitUntilExit()
    }

    @discardableResult
    func command(_ path: String, method: HTTPRequest.Method = .post, _ body: [String: Any]? = [:]) async throws -> Any?
    {
        let answer = try await Self.request(port: port, "/session/\(session)/\(path)", method: method, body: body)
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure(description: "\(path): \(error): \(value["message"] ?? "")")
        }
        return answer["value"]
    }

    func open(_ url: String) async throws { try await command("url", ["url": url]) }

    /// Runs a script in the page (its `return` value comes back).
    func run(_ script: String, _ args: [Any] = []) async throws -> Any? {
        try await command("execute/sync", ["script": script, "args": args])
    }

    /// Runs `script` until it returns true, every 100 ms, for at most `seconds`.
    func wait(_ what: String, seconds: Double = 30, until script: String) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await run(script) as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "timed out after \(seconds) s waiting for \(what)")
    }

    /// A PNG screenshot of the page.
    func screenshot() async throws -> Data {
        guard let text = try await command("screenshot", method: .get, nil) as? String,
            let data = Data(base64Encoded: text)
        else { throw Failure(description: "no screenshot") }
        return data
    }

    /// The browser console's entries at level SEVERE (errors) so far.
    func consoleErrors() async throws -> [String] {
        let entries = try await command("se/log", ["type": "browser"]) as? [[String: Any]] ?? []
        return entries.filter { $0["level"] as? String == "SEVERE" }.map { "\($0["message"] ?? "")" }
    }

    /// One WebDriver request on a fresh loopback connection, its JSON answer as an object.
    ///
    /// Through Hummingbird's test client: Foundation's URLSession on Linux fails every request to chromedriver
    /// ("Failed writing header").
    static func request(port: Int, _ path: String, method: HTTPRequest.Method, body: [String: Any]?) async throws
        -> [String: Any]
    {
        var headers: HTTPFields = [:]
        var buffer: ByteBuffer?
        if let body {
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
            headers[.contentType] = "application/json"
        }
        let request = TestClient.Request(
            path, method: method, authority: "127.0.0.1:\(port)", headers: headers, body: buffer)
        let response = try await TestClient.withClient(
            host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60))
        ) { client in
            try await client.execute(request)
        }
        let data = Data(response.body.map { Array($0.readableBytesView) } ?? [])
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
