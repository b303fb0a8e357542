import Foundation

extension ExternalTool {
    /// The result of ``run(_:_:input:)``.
    public struct Output: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output as UTF-8 text.
        public var stdout: String
        /// Standard error as UTF-8 text.
        public var stderr: String
    }

    /// Runs `name` with `arguments`, feeding `input` to its standard input, and returns its status, standard
    /// output and standard error (for tools like transicc that read values from stdin).
    public static func run(_ name: String, _ arguments: [String], input: String) throws -> Output {
        guard let executable = path(name) else { throw ToolError(message: "\(name) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Drain both pipes on other threads so a chatty tool cannot block on a full pipe.
        let outBox = DataBox()
        let errBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outBox.data = stdout.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self))
    }
}

private final class DataBox: @unchecked Sendable {  // written by one thread, read after group.wait()
    var data = Data()
}
