import Foundation
import LinkstrTestSupport

/// Tests/Interop/preview_server.py on 127.0.0.1 (or another loopback `host`): web pages for link-preview tests.
final class PreviewServer {
    let port: Int
    let host: String
    private let process: Process
    /// Every path requested so far, in order.
    private let log = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-preview-requests-\(UUID().uuidString)")

    /// `files`: a directory served as /files/NAME, each also named by a page /page/NAME.
    init(files: URL? = nil, host: String = "127.0.0.1") throws {
        self.host = host
        let p = Process()
        p.environment = ProcessInfo.processInfo.environment.merging(["PREVIEW_HOST": host]) { $1 }
        p.executableURL = try TestEnvironment.python()
        p.arguments = [TestEnvironment.interopScript("preview_server.py").path, log.path] + (files.map { [$0.path] } ?? [])
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        // The script prints its port first.
        var line = Data()
        let deadline = Date().addingTimeInterval(20)
        while !line.contains(UInt8(ascii: "\n")), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            p.terminate()
            throw HarnessFailure(description: "preview server did not start")
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://\(host):\(port)\(path)" }

    /// The paths requested so far, oldest first.
    var requests: [String] { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}
