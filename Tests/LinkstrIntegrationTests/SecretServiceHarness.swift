import Foundation
import LinkstrTestSupport
import XCTest

/// A Secret Service of the test's own: a private session bus (no service activation: nothing starts
/// behind the test's back) and GNOME Keyring's daemon on it, unlocked or not, with its keyrings in a
/// temporary directory. `environment` is what a linkstr process needs to reach it.
final class SecretService {
    let directory: URL
    let busAddress: String
    private let bus: Process
    private var daemon: Process?

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-keyring-\(UUID().uuidString)")
        for sub in ["data", "run"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let socket = directory.appendingPathComponent("bus").path
        let config = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:path=\(socket)</listen><auth>EXTERNAL</auth>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(config.path)", "--nofork", "--nopidfile"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        busAddress = "unix:path=\(socket)"
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }
        guard FileManager.default.fileExists(atPath: socket) else { throw HarnessFailure(description: "the session bus did not start") }
    }

    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": busAddress, "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
         "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path]
    }

    /// Starts the keyring daemon: `unlocked` with `password` (its login keyring made on first use), or
    /// locked (an existing login keyring left locked).
    func startDaemon(unlocked: Bool, password: String = "keyring password") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gnome-keyring-daemon")
        process.arguments = ["--foreground", "--components=secrets"] + (unlocked ? ["--unlock"] : [])
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if unlocked { input.fileHandleForWriting.write(Data(password.utf8)) }
        try input.fileHandleForWriting.close()
        daemon = process
        // Ready once it owns the Secret Service's name on the bus.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if owns() { return }
            usleep(50_000)
        }
        throw HarnessFailure(description: "gnome-keyring-daemon did not take the Secret Service's name")
    }

    /// Whether the secrets service answers on the bus.
    private func owns() -> Bool {
        let r = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/dbus-send"),
                                       ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                        "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"],
                                       environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, timeout: 5)
        return r?.stdoutText.contains("boolean true") ?? false
    }

    /// The daemon stops answering (SIGSTOP): it keeps its name on the bus and never replies.
    func hang() { if let daemon { kill(daemon.processIdentifier, SIGSTOP) } }

    func stopDaemon() {
        guard let daemon else { return }
        kill(daemon.processIdentifier, SIGCONT)
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        self.daemon = nil
        // The bus forgets the name once the connection is gone.
        let deadline = Date().addingTimeInterval(5)
        while owns(), Date() < deadline { usleep(20_000) }
    }

    /// `secret-tool` against this service (2 s at most).
    func secretTool(_ arguments: [String]) throws -> ProcessRunner.Result {
        try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/secret-tool"), arguments,
                              environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, timeout: 5)
    }

    func stop() {
        stopDaemon()
        bus.terminate()
        bus.waitUntilExit()
        removeTemporary(directory)
    }
}
