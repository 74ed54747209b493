import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// A tmpfs of a chosen size, mounted in a mount namespace of its own (so nothing is left mounted if a
/// test dies): linkstr runs inside it (`launcher`), the test reaches its files through `/proc/PID/root`
/// (SQLite would resolve that link to the host's empty directory, so linkstr must not). A disk that
/// really fills up.
final class SmallFileSystem {
    let holder: Process
    /// The mounted directory, as this process reaches it (for files the test writes itself).
    let root: URL
    /// The mounted directory as seen inside the namespace: the path to give linkstr.
    let mountPoint: String
    /// Runs a command inside the namespace, where the tmpfs is mounted.
    var launcher: [String] {
        ["/usr/bin/nsenter", "-t", "\(holder.processIdentifier)"] + (getuid() == 0 ? ["-m"] : ["-U", "-m", "--preserve-credentials"]) + ["--"]
    }

    init(kilobytes: Int) throws {
        mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        // As root a private mount namespace is enough; otherwise a user namespace maps us to root in it.
        let asRoot = getuid() == 0
        holder.arguments = (asRoot ? ["-m", "--propagation", "private"] : ["-r", "-m", "--propagation", "private"])
            + ["sh", "-c", "mount -t tmpfs -o size=\(kilobytes)k,mode=0777 tmpfs \"$0\" && touch \"$0/.ready\" && while kill -0 $PPID 2>/dev/null; do sleep 1; done", mountPoint]
        let pipe = Pipe()
        holder.standardError = pipe
        try holder.run()
        root = URL(fileURLWithPath: "/proc/\(holder.processIdentifier)/root\(mountPoint)")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent(".ready").path) {
            guard holder.isRunning, Date() < deadline else {
                let why = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
                throw HarnessFailure(description: "cannot mount a tmpfs (unshare and mount are needed; CI runs as root): \(why)")
            }
            usleep(20_000)
        }
        try FileManager.default.removeItem(at: root.appendingPathComponent(".ready"))
    }

    /// Fills the file system until at most `leaving` bytes are free; returns the filler file.
    @discardableResult
    func fill(leaving: Int) throws -> URL {
        let filler = root.appendingPathComponent("filler")
        var info = statvfs()
        guard statvfs(root.path, &info) == 0 else { throw HarnessFailure(description: "statvfs failed") }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let size = max(0, free - leaving)
        FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        try handle.write(contentsOf: Data(count: size))
        try handle.close()
        return filler
    }

    /// Mounts the file system read-only (or writable again) inside the namespace: even root cannot write.
    func setReadOnly(_ readOnly: Bool) throws {
        let r = try ProcessRunner.run(URL(fileURLWithPath: launcher[0]), Array(launcher.dropFirst())
                                      + ["mount", "-o", "remount,\(readOnly ? "ro" : "rw")", mountPoint])
        guard r.status == 0 else { throw HarnessFailure(description: "remount failed: \(r.stderrText)") }
    }

    /// A home on this file system with a new identity and link previews off, linkstr run inside it.
    func homeWithIdentity(relay: String) throws -> (Home, PublicKey) {
        let home = try Home(directory: URL(fileURLWithPath: mountPoint + "/home"), relays: [relay], launcher: launcher)
        let (_, hex) = try home.createIdentity(name: "Ada")
        try home.writeConfig("link_previews = false\n")
        return (home, try PublicKey(hex: hex))
    }

    /// A home here (as `homeWithIdentity`) that synced a stranger's session of `posts` posts from `relay`.
    func homeSynced(from relay: String, posts: Int) async throws -> (home: Home, friend: SeededSender, me: PublicKey) {
        let (home, me) = try homeWithIdentity(relay: relay)
        let friend = SeededSender()
        try await friend.seed(relay, to: me, posts: 0..<posts)
        XCTAssertEqual(try home.sync(timeout: 60)["complete"] as? Bool, true)
        return (home, friend, me)
    }

    var freeBytes: Int {
        var info = statvfs()
        return statvfs(root.path, &info) == 0 ? Int(info.f_bavail) * Int(info.f_frsize) : -1
    }

    func remove() {
        // The holder also ends by itself once this process is gone (it watches its parent).
        holder.terminate()
        holder.waitUntilExit()
        try? FileManager.default.removeItem(atPath: mountPoint)
    }
}
