import Foundation

/// A private tmux server (its own socket, no user config) to run the terminal app in a real pseudo-terminal:
/// keys go in with `send-keys`, pastes with `paste-buffer -p` (bracketed only if the app asked for it),
/// and the screen comes back with `capture-pane`.
public final class Tmux {
    public let socket = "linkstr-test-\(UUID().uuidString.prefix(8))"
    public let binary: URL
    /// Holds the server's socket (TMUX_TMPDIR) and our config, and is removed afterwards.
    public let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-tmux-\(UUID().uuidString)")
    /// A config of our own instead of the user's: 256 colours inside, no delay after Escape.
    var config: URL { directory.appendingPathComponent("tmux.conf") }

    public init() throws {
        guard let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw ProcessRunner.Failure(description: "tmux is not installed (scripts/test installs it with apt-get)")
        }
        binary = URL(fileURLWithPath: tmux)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try "set -g default-terminal tmux-256color\nset -g escape-time 0\n".write(to: config, atomically: true, encoding: .utf8)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    private var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        if env["TERM"] == nil || env["TERM"] == "dumb" { env["TERM"] = "xterm-256color" }
        env["TMUX_TMPDIR"] = directory.path
        env["TMUX"] = nil  // a test run from inside tmux must not talk to the user's server
        env["NO_COLOR"] = nil  // `swift test` sets it for its own output; the apps in the panes need colour
        return env
    }

    @discardableResult
    public func tmux(_ args: [String]) throws -> String {
        let r = try ProcessRunner.run(binary, ["-L", socket, "-f", config.path] + args, environment: environment, timeout: 20)
        guard r.status == 0 else { throw ProcessRunner.Failure(description: "tmux \(args.joined(separator: " ")): \(r.stderrText)") }
        return r.stdoutText
    }

    /// Starts `command` (argv) in a new detached 80×24 window named `name`.
    public func start(_ name: String, _ command: [String], environment: [String: String] = [:], columns: Int = 80, rows: Int = 24) throws {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let env = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        // The pane outlives the app (sleep) so a crash message stays on screen for the failure report.
        // The first command forks the tmux server, which would hold our output pipes open forever:
        // it runs through sh with its output sent to /dev/null instead.
        let args = ["-L", socket, "-f", config.path, "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)",
                    "env \(env) \(quoted); sleep 600"]
        let line = ([binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let r = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line + " </dev/null >/dev/null 2>&1; echo $?"],
                                      environment: self.environment, timeout: 20)
        guard r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "0" else {
            throw ProcessRunner.Failure(description: "tmux new-session failed (\(r.stdoutText))")
        }
    }

    public func keys(_ name: String, _ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// Literal text typed key by key.
    public func type(_ name: String, _ text: String) throws { try tmux(["send-keys", "-t", name, "-l", text]) }

    /// Literal text typed, then Enter.
    public func submit(_ name: String, _ text: String) throws {
        try type(name, text)
        try keys(name, "Enter")
    }

    /// A terminal paste: bracketed when the application enabled bracketed paste mode.
    public func paste(_ name: String, _ text: String) throws {
        try tmux(["set-buffer", "-b", "t", text])
        try tmux(["paste-buffer", "-p", "-b", "t", "-t", name])
    }

    /// A paste of a file's contents (for pastes larger than one command-line argument may be).
    public func pasteFile(_ name: String, _ file: URL) throws {
        try tmux(["load-buffer", "-b", "f", file.path])
        try tmux(["paste-buffer", "-p", "-b", "f", "-t", name])
    }

    /// The programs the window's shell is running: the app while it runs, `sleep` once it has ended
    /// (the pane outlives it, see `start`). The shell runs them without job control, so tmux's own
    /// `pane_current_command` names the shell; its children are read from /proc instead.
    public func runningCommands(_ name: String) throws -> [String] {
        let shell = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    public func screen(_ name: String, escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : []))
    }

    /// Polls the screen until `predicate` holds; fails with the last screen otherwise. The screen it
    /// returns held still for one more capture: a capture can fall between two rows of one frame (the
    /// awaited text drawn, a row below it not yet), and callers go on to check other rows. A screen that
    /// never holds still (a ticking counter) is returned after a few tries all the same.
    @discardableResult
    public func waitFor(_ name: String, _ what: String, timeout: TimeInterval = 15,
                        _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "", unsettled = 0
        while Date() < deadline {
            last = try screen(name)
            if predicate(last) {
                usleep(20_000)
                let again = try screen(name)
                if again == last { return last }
                if unsettled >= 5 { return predicate(again) ? again : last }
                unsettled += 1
                continue
            }
            usleep(100_000)
        }
        // Without its blank bottom rows: a failure report shows a log's last lines, and they must be the screen's.
        var rows = last.split(separator: "\n", omittingEmptySubsequences: false)
        while let row = rows.last, row.allSatisfy(\.isWhitespace) { rows.removeLast() }
        throw ProcessRunner.Failure(description: "timed out waiting for \(what) on \(name); the screen was:\n\(rows.joined(separator: "\n"))\n(end of screen)")
    }

    @discardableResult
    public func waitFor(_ name: String, text: String, timeout: TimeInterval = 15) throws -> String {
        try waitFor(name, "“\(text)”", timeout: timeout) { $0.contains(text) }
    }
}
