import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// A data directory for one benchmark: the identity `me` stored under `passphrase` (the NIP-49 default
/// cost, as a real vault has), link previews off (nothing fetched leaves the machine), and every session
/// listed (the seeded senders are no contacts: as requests, the list the benchmarks scroll would be empty).
/// `remove()` at the end.
struct BenchHome {
    static let passphrase = "benchmark passphrase"

    /// The release `linkstr` next to this benchmark binary.
    static func binary() throws -> URL {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("linkstr")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ProcessRunner.Failure(description: "\(url.path) is missing: swift build -c release --product linkstr")
        }
        return url
    }

    let home: URL
    let paths: DataPaths
    let me: SecretKey
    var passphrase: String { Self.passphrase }

    init(_ name: String, me: SecretKey) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-\(name)-bench-\(UUID().uuidString)")
        paths = DataPaths.resolve(home: home.path)
        self.me = me
        try IdentityVault(paths: paths).store(me, passphrase: Self.passphrase)
        try FileManager.default.createDirectory(at: paths.config, withIntermediateDirectories: true)
        // `reopen = false`: each launch starts at the session list, so its figures stay comparable.
        try "link_previews = false\nsession_requests = false\nreopen = false\nindexer_relays = []\n".write(to: paths.config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }

    func remove() {
        do { try FileManager.default.removeItem(at: home) } catch { print("  (could not remove \(home.path): \(error))") }
    }
}
