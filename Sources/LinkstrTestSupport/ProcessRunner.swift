import Foundation

/// Runs a child process to completion with stdin data and a timeout.
public enum ProcessRunner {
    public struct Result {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static func run(_ executable: URL, _ arguments: [String], stdin: Data = Data(),
                           environment: [String: String]? = nil, timeout: TimeInterval = 120) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        // Read both pipes concurrently so that a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data()
        nonisolated(unsafe) var err = Data()
        group.enter()
        DispatchQueue.global().async { out = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { err = errPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        inPipe.fileHandleForWriting.write(stdin)
        try? inPipe.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            throw Failure(description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) timed out after \(timeout)s")
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
    }
}
