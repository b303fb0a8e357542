import Foundation
import Synchronization

/// What the process is attached to: progress bars only on a terminal.
enum Terminal {
    /// Whether standard error is a terminal (progress bars and colours go there).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal.
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns (80 when unknown).
    static var columns: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
        return Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
    }

    /// Writes `text` and a newline to standard error.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
///
/// Safe to update from several threads (batch workers). `finish()` clears the line so the messages printed
/// after it start at column 0.
final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var failed = 0
        var current = ""
        var lastDraw = ContinuousClock.now - .seconds(1)
    }

    private let total: Int
    private let label: String
    private let enabled: Bool
    private let start = ContinuousClock.now
    private let state = Mutex(State())

    /// A bar for `total` steps; disabled when `enabled` is false or standard error is not a terminal.
    init(total: Int, label: String, enabled: Bool = true) {
        self.total = max(total, 1)
        self.label = label
        self.enabled =
            enabled && Terminal.standardErrorIsTerminal
            && ProcessInfo.processInfo.environment["LUX_NO_PROGRESS"] == nil
    }

    /// Notes that `item` has started (shown after the bar).
    func started(_ item: String) {
        guard enabled else { return }
        state.withLock { $0.current = item }
        draw(force: false)
    }

    /// Advances the bar by one finished step.
    func advance(failed: Bool = false) {
        guard enabled else { return }
        state.withLock {
            $0.done += 1
            if failed { $0.failed += 1 }
        }
        draw(force: true)
    }

    /// Prints `message` above the bar (errors during a batch).
    func log(_ message: String) {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        Terminal.printError(message)
        if enabled { draw(force: true) }
    }

    /// Prints `line` on standard output without breaking the bar.
    func say(_ line: String) {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        print(line)
        fflush(nil)
        if enabled { draw(force: true) }
    }

    /// Clears the bar.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    private func draw(force: Bool) {
        let line: String? = state.withLock { s in
            let now = ContinuousClock.now
            guard force || now - s.lastDraw > .milliseconds(100) else { return nil }
            s.lastDraw = now
            let fraction = Double(s.done) / Double(total)
            let elapsed = seconds(now - start)
            let eta = s.done > 0 ? elapsed / Double(s.done) * Double(total - s.done) : nil
            var tail = " \(s.done)/\(total)"
            if s.failed > 0 { tail += " (\(s.failed) failed)" }
            tail += eta.map { String(format: "  ETA %@", Self.clock($0)) } ?? ""
            if !s.current.isEmpty { tail += "  " + s.current }
            let width = max(10, min(40, Terminal.columns - label.count - tail.count - 4))
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let text = "\(label) \(bar)\(tail)"
            return String(text.prefix(Terminal.columns - 1))
        }
        if let line { FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8)) }
    }

    private static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
