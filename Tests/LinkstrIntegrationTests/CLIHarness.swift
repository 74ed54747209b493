import Foundation
import LinkstrStorage
import LinkstrTestSupport
import XCTest

/// One `linkstr` home directory driven through the real CLI binary.
struct Home {
    let directory: URL
    var relays: [String]
    let binary: URL
    /// A command that runs linkstr (nsenter into a test's mount namespace), or none.
    var launcher: [String] = []

    init(_ name: String, relays: [String]) throws {
        try self.init(directory: FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-home-\(name)-\(UUID().uuidString)"), relays: relays)
    }

    /// A home at a chosen place (a small file system, for one), linkstr started through `launcher`.
    init(directory: URL, relays: [String], launcher: [String] = []) throws {
        self.directory = directory
        self.relays = relays
        self.launcher = launcher
        binary = try TestEnvironment.builtProduct("linkstr")
        try Self.writeConfig("", home: directory)
    }

    struct Run {
        let status: Int32
        let out: String
        let err: String
        var trimmed: String { out.trimmingCharacters(in: .whitespacesAndNewlines) }
        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(out.utf8)) }
    }

    /// Runs `linkstr --home … [--relay …] args…` with the passphrase in the environment (`passphrase`
    /// nil: none there, for the other sources).
    @discardableResult
    func run(_ args: [String], stdin: String = "", relays override: [String]? = nil, timeout: TimeInterval = 120,
             environment extra: [String: String] = [:], passphrase: String? = Home.passphrase) throws -> Run {
        var env = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        env["LINKSTR_PASSPHRASE"] = passphrase
        var full = ["--home", directory.path]
        for r in override ?? relays { full += ["--relay", r] }
        let r = launcher.isEmpty
            ? try ProcessRunner.run(binary, full + args, stdin: Data(stdin.utf8), environment: env, timeout: timeout)
            : try ProcessRunner.run(URL(fileURLWithPath: launcher[0]), Array(launcher.dropFirst()) + [binary.path] + full + args,
                                    stdin: Data(stdin.utf8), environment: env, timeout: timeout)
        return Run(status: r.status, out: r.stdoutText, err: r.stderrText)
    }

    /// Like `run`, but the command must succeed.
    @discardableResult
    func ok(_ args: [String], stdin: String = "", relays override: [String]? = nil, environment: [String: String] = [:],
            file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let r = try run(args, stdin: stdin, relays: override, environment: environment)
        XCTAssertEqual(r.status, 0, "linkstr \(args.joined(separator: " ")) failed: \(r.err)", file: file, line: line)
        if r.status != 0 { throw HarnessFailure(description: r.err) }
        return r
    }

    /// Writes the home's `config.toml` (in `DIR/config` under `--home DIR`).
    func writeConfig(_ text: String) throws {
        try Self.writeConfig(text, home: directory)
    }

    /// Unless the text names `indexer_relays`, none: a test never dials the public indexers.
    static func writeConfig(_ text: String, home: URL) throws {
        let dir = home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // First: a key after a `[table]` would belong to that table.
        let full = text.contains("indexer_relays") ? text : "indexer_relays = []\n" + text + (text.isEmpty || text.hasSuffix("\n") ? "" : "\n")
        try full.write(to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }

    func createIdentity(name: String? = nil) throws -> (npub: String, hex: String) {
        let out = try ok(["identity", "create", "--kdf-cost", "10", "--json"] + (name.map { ["--name", $0] } ?? [])).json() as! [String: String]
        return (out["npub"]!, out["pubkey"]!)
    }

    func sessions(archived: Bool = false) throws -> [[String: Any]] {
        try ok(["session", "list", "--json"] + (archived ? ["--archived"] : [])).json() as! [[String: Any]]
    }

    /// Accepts every waiting session request (sessions created by people who are not contacts), as a user
    /// who knows the sender would; returns their ids.
    @discardableResult
    func acceptRequests() throws -> [String] {
        let waiting = try ok(["session", "list", "--requests", "--json"]).json() as! [[String: Any]]
        let ids = waiting.filter { $0["standing"] as? String == "request" }.compactMap { $0["id"] as? String }
        for id in ids { try ok(["session", "accept", id]) }
        return ids
    }

    func posts(_ session: String) throws -> [[String: Any]] {
        try ok(["posts", session, "--json"]).json() as! [[String: Any]]
    }

    /// Every post id of a session (up to 5 000), newest first.
    func allPostIDs(_ session: String) throws -> [String] {
        (try ok(["posts", session, "--json", "--limit", "5000"]).json() as! [[String: Any]]).map { $0["id"] as! String }
    }

    func sync(timeout: Int = 20) throws -> [String: Any] {
        try ok(["sync", "--json", "--timeout", String(timeout)]).json() as! [String: Any]
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Makes this home's relays its account's own stored list (the defaults taken out; listing and editing
    /// dial nothing) instead of a `--relay` override on every command: for tests of what we publish as our
    /// lists, which an override never changes (issue 53). Call after `createIdentity`.
    mutating func storeRelays() throws {
        let urls = relays
        relays = []
        let defaults = (try ok(["relays", "list", "--json"]).json() as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
        for url in urls { try ok(["relays", "add", url]) }
        for url in defaults { try ok(["relays", "remove", url]) }
    }

    static let passphrase = "correct horse battery staple"

    /// A home with an identity and link previews off (no fetch leaves the machine), ready for the app.
    static func forApp(_ name: String, relay: String) throws -> Home {
        let home = try Home(name, relays: [relay])
        _ = try home.createIdentity()
        try home.writeConfig("link_previews = false\n")
        return home
    }

    /// Starts the app under `term` and goes to Settings (4) once the app is up.
    func startAppInSettings(_ tmux: Tmux, _ window: String, relay: String?, term: String) throws {
        try startApp(tmux, window, relay: relay, environment: ["TERM": term])
        try tmux.waitFor(window, text: "Sessions", timeout: 30)
        try tmux.keys(window, "4")
    }

    /// Waits until no app holds this home's data lock (an app told to quit lets it go as it exits), so the
    /// next start does not find it taken.
    func waitUntilUnlocked(seconds: TimeInterval = 10) throws {
        try DataLock.acquire(DataPaths.resolve(home: directory.path), wait: seconds).release()
    }

    /// Starts the app on this home in a tmux window, unlocked from the environment unless told otherwise.
    func startApp(_ tmux: Tmux, _ window: String, relay: String?, arguments: [String] = [], passphrase: String = Home.passphrase,
                  environment: [String: String] = [:], columns: Int = 80, rows: Int = 24) throws {
        try tmux.start(window, [binary.path, "--home", directory.path] + (relay.map { ["--relay", $0] } ?? []) + arguments,
                       environment: ["LINKSTR_PASSPHRASE": passphrase].merging(environment) { $1 }, columns: columns, rows: rows)
    }
}

struct HarnessFailure: Error, CustomStringConvertible { let description: String }

/// A directory for stub programs put first on an app's PATH (a `wl-copy`, a `notify-send`…), and the
/// file each stub writes what it was given to. `remove()` at the end.
struct StubTools {
    let directory: URL

    init(_ name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-stubs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Installs `tool` running `script` (sh), where `$OUT` is the tool's output file; returns that file.
    @discardableResult
    func install(_ tool: String, script: String) throws -> URL {
        let out = directory.appendingPathComponent(tool + ".out")
        let url = directory.appendingPathComponent(tool)
        try "#!/bin/sh\nOUT='\(out.path)'\n\(script)\n".write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return out
    }

    /// The stand-ins for mpv and yt-dlp (Tests/Interop/stub_mpv.py, stub_ytdlp.py); `ytdlp: false` puts a
    /// yt-dlp that only exists (mpv's hook needs one on PATH) instead of the one that streams.
    func installMediaTools(ytdlp streams: Bool = true) throws {
        let python = try TestEnvironment.python().path
        try install("mpv", script: "exec '\(python)' '\(TestEnvironment.interopScript("stub_mpv.py").path)' \"$@\"")
        try install("yt-dlp", script: streams ? "exec '\(python)' '\(TestEnvironment.interopScript("stub_ytdlp.py").path)' \"$@\"" : "exit 0")
    }

    var path: String { directory.path + ":/usr/bin:/bin" }
    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Removes a test's temporary file or directory; one already gone is fine, any other failure fails the test.
func removeTemporary(_ url: URL, file: StaticString = #filePath, line: UInt = #line) {
    do { try FileManager.default.removeItem(at: url) } catch CocoaError.fileNoSuchFile {
    } catch {
        XCTFail("could not remove \(url.path): \(error)", file: file, line: line)
    }
}

extension Array {
    /// The element at `index`, or nil past the ends (screens and relay answers have what they have).
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Home {
    /// `linkstr sync` started in the background on `directory` (this home or a copy of it) with `relay`,
    /// its output dropped: for tests that kill it midway.
    func startSync(at directory: URL, relay: String) throws -> Process {
        try start(["sync", "--json", "--timeout", "60"], at: directory, relay: relay)
    }

    /// `linkstr ARGS` started in the background on `directory` (this home unless said) with `relay`; its
    /// output goes to the files named (created empty first), else nowhere.
    func start(_ arguments: [String], at directory: URL? = nil, relay: String, stdout: URL? = nil, stderr: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--home", (directory ?? self.directory).path, "--relay", relay] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["LINKSTR_PASSPHRASE": Home.passphrase]) { $1 }
        func sink(_ file: URL?) throws -> Any {
            guard let file else { return FileHandle.nullDevice }
            FileManager.default.createFile(atPath: file.path, contents: nil)
            return try FileHandle(forWritingTo: file)
        }
        process.standardOutput = try sink(stdout)
        process.standardError = try sink(stderr)
        try process.run()
        return process
    }
}
