import Foundation
import LinkstrTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 53 (6.7): `links.sock` was served by one thread with a 2 s read, so a client that connected and
/// said nothing made the next hand-off fail, and its link was lost; a second link handed in while the
/// first one's box was open replaced it. Now each client is served apart, the links wait their turn,
/// and a link the app did not take is given back to the user whole.
final class LinkHandOffQueueTests: XCTestCase {
    func testASilentClientDelaysNoHandOffAndTwoLinksBothArrive() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("handoff-queue", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Films"])
        let tmux = try Tmux()
        try home.startApp(tmux, "app", relay: relay.url)
        try tmux.waitFor("app", text: "Films", timeout: 30)

        // Three clients connect and say nothing, and keep their connections open (one thread waited 2 s
        // on each in turn, longer than a sender waits for its "ok").
        let silent = try (0..<3).map { _ in try Self.connect(home.directory.appendingPathComponent("links.sock").path) }
        defer { silent.forEach { close($0) } }
        // `linkstr open` in a terminal, as the desktop entry runs it; the shell says how long it took.
        func open(_ path: String) throws -> String {
            let link = "linkstr://share?url=https%3A%2F%2Fexample.com%2F\(path)"
            let command = "s=$(date +%s%N); '\(home.binary.path)' --home '\(home.directory.path)' --relay '\(relay.url)' open '\(link)'; "
                + "echo exit=$? ms=$(( ($(date +%s%N) - s) / 1000000 )); sleep 60"
            try tmux.start(path, ["sh", "-c", command], environment: ["LINKSTR_PASSPHRASE": Home.passphrase])
            return try tmux.waitFor(path, text: "exit=", timeout: 20)
        }
        for said in [try open("first"), try open("second")] {
            XCTAssertTrue(said.contains("exit=0") && said.contains("handed to the linkstr already running here"), said)
            let ms = said.components(separatedBy: "ms=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? .max
            XCTAssertLessThan(ms, 4_000, "not held up behind the silent client: \(said)")
        }
        try tmux.waitFor("app", text: "example.com/first", timeout: 10)
        try tmux.waitFor("app", text: "1 more shared link waiting")
        try tmux.keys("app", "Escape")
        try tmux.waitFor("app", text: "discard the shared link")
        try tmux.keys("app", "y")
        try tmux.waitFor("app", "the second link's box") { $0.contains("example.com/second") && $0.contains("Share into:") }
        try tmux.keys("app", "Escape")
        try tmux.keys("app", "y")
        try tmux.waitFor("app", "the box closed") { !$0.contains("Share into:") }
        try tmux.keys("app", "C-c")
        _ = try? tmux.waitFor("app", "the app to quit") { !$0.contains("Sessions") }
    }

    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw HarnessFailure(description: "cannot connect to \(path): \(String(cString: strerror(errno)))") }
        return fd
    }
}
