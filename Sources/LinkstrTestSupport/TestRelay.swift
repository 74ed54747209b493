import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A real relay (`nostr-relay` from the test virtualenv) on 127.0.0.1 for one test, stopped afterwards.
public final class TestRelay: Sendable {
    public let port: Int
    public let directory: URL
    public var url: String { "ws://127.0.0.1:\(port)" }
    private let process = Mutex<Process?>(nil)
    private let auth: Bool
    private let readers: [String]
    private let maxLimit: Int
    private let checksSignatures: Bool

    /// `requireAuthToRead`: reading needs NIP-42 AUTH by one of `readers` (hex pubkeys).
    /// `checksSignatures: false` stores events without verifying them (to serve junk in flood tests).
    public init(requireAuthToRead: Bool = false, readers: [String] = [], maxLimit: Int = 6000, checksSignatures: Bool = true) throws {
        self.maxLimit = maxLimit
        self.checksSignatures = checksSignatures
        port = try TestRelay.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-relay-\(UUID().uuidString)")
        auth = requireAuthToRead
        self.readers = readers
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try start()
    }

    deinit { stop(); try? FileManager.default.removeItem(at: directory) }

    private var config: URL { directory.appendingPathComponent("config.yaml") }

    /// Starts the relay (the initialiser already did; this restarts it after `stop()`, same port and data).
    public func start() throws {
        if let p = process.withLock({ $0 }), p.isRunning { return }
        var yaml = """
        storage:
          sqlalchemy.url: sqlite+aiosqlite:///\(directory.path)/nostr.sqlite3
          validators: \(checksSignatures ? "[nostr_relay.validators.is_signed]" : "[]")
        gunicorn: {bind: "127.0.0.1:\(port)", workers: 1, loglevel: warning}
        max_limit: \(maxLimit)
        subscription_limit: 64
        message_timeout: 3600

        """
        if auth {
            yaml += """
            authentication:
              enabled: true
              relay_urls: [\(url)]
              actions: {save: a, query: r}

            """
        }
        try yaml.write(to: config, atomically: true, encoding: .utf8)
        let bin = try TestEnvironment.venv().appendingPathComponent("bin/nostr-relay")
        let p = Process()
        p.executableURL = bin
        p.arguments = ["-c", config.path, "serve", "--use-uvicorn"]
        p.currentDirectoryURL = directory
        p.standardOutput = FileHandle.nullDevice
        let logFile = directory.appendingPathComponent("relay.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: logFile)
        try p.run()
        process.withLock { $0 = p }
        try TestRelay.waitUntilListening(port: port, timeout: 30)
        // Roles live in the relay's database, which `serve` has created by now.
        for reader in readers {
            let r = try ProcessRunner.run(bin, ["-c", config.path, "role", "set", "-p", reader, "-r", "ra"], timeout: 60)
            guard r.status == 0, r.stdoutText.contains("Set roles") else {
                throw TestEnvironment.Missing(description: "nostr-relay role set failed: \(r.stdoutText) \(r.stderrText)")
            }
        }
    }

    /// The relay's process (nil before it runs), for benches that read its CPU time.
    public var processID: Int32? { process.withLock { $0?.processIdentifier } }

    /// SIGKILL: children of the test process may inherit a blocked SIGTERM and would never exit.
    public func stop() {
        guard let p = process.withLock({ p in defer { p = nil }; return p }) else { return }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    public var log: String { (try? String(contentsOf: directory.appendingPathComponent("relay.log"), encoding: .utf8)) ?? "" }

    /// A TCP port nobody listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw TestEnvironment.Missing(description: "no free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    public static func waitUntilListening(port: Int, timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &addr) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return }
            usleep(100_000)
        }
        throw TestEnvironment.Missing(description: "nothing listens on port \(port) after \(timeout) s")
    }
}

/// A Python script from Tests/Interop serving on a free 127.0.0.1 port, killed when released.
public final class InteropServer: Sendable {
    public let port: Int
    public var url: String { "ws://127.0.0.1:\(port)" }
    private let process: Mutex<Process>

    public init(script: String, arguments: [String]) throws {
        port = try TestRelay.freePort()
        let p = Process()
        p.executableURL = try TestEnvironment.python()
        p.arguments = [TestEnvironment.interopScript(script).path, String(port)] + arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = Mutex(p)
        try TestRelay.waitUntilListening(port: port, timeout: 20)
    }

    deinit { stop() }

    /// The server's process, for benches that read its CPU time.
    public var processID: Int32 { process.withLock { $0.processIdentifier } }

    public func stop() {
        process.withLock { p in
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
        }
    }
}

/// rust-nostr's relay (`LocalRelay` from the nostr-sdk wheel, Tests/Interop/rust_relay.py) on 127.0.0.1:
/// a second relay implementation, which refuses kind 5 for gift wraps and treats limits its own way.
public enum RustRelay {
    /// `giftWrapsAfterAuth`: an inbox relay that lets only the addressee read gift wraps, after NIP-42 AUTH.
    public static func start(maxFilterLimit: Int? = nil, giftWrapsAfterAuth: Bool = false) throws -> InteropServer {
        try InteropServer(script: "rust_relay.py", arguments: (maxFilterLimit.map { [String($0)] } ?? []) + (giftWrapsAfterAuth ? ["--auth-dm"] : []))
    }
}

/// The fault-injecting WebSocket proxy (Tests/Interop/fault_proxy.py) in front of a relay.
public enum FaultProxy {
    public static func start(upstream: String, mode: String, argument: String = "0") throws -> InteropServer {
        try InteropServer(script: "fault_proxy.py", arguments: [upstream, mode, argument])
    }
}
