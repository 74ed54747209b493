import Foundation
import LinkstrTestSupport
import NostrProtocol

/// rust-nostr's `Client.sync` (the nostr-sdk wheel, Tests/Interop/rust_sync.py) on the same relay and
/// wraps as ours, for issue 31's side-by-side figure: into an empty database, and reconciling a full one.
/// rust-nostr only fetches and checks signatures; ours also unwraps and stores every wrap.
enum RustSyncBench {
    struct Figures {
        /// Seconds into an empty database, or rust-nostr's error and how long learning what it lacks took.
        var empty: Double?
        var emptyError: String?
        var reconcileOnly: Double?
        var full = 0.0
    }

    /// The wraps the relay holds, one "id created_at" a line: the full database's set.
    static func writeItems(_ events: [NostrEvent]) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-rust-items-\(UUID().uuidString)")
        try Data(events.map { "\($0.id.hex) \($0.createdAt)\n" }.joined().utf8).write(to: file)
        return file
    }

    static func run(_ url: String, for pubkey: String, items: URL) throws -> Figures {
        let r = try ProcessRunner.run(try TestEnvironment.python(), [TestEnvironment.interopScript("rust_sync.py").path, url, pubkey, items.path],
                                      timeout: 600)
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: r.stdout) as? [String: [String: Any]],
              let empty = json["empty"], let full = json["full"], let fullSeconds = full["seconds"] as? Double else {
            throw HarnessError(description: "rust_sync.py failed (\(r.status)): \(r.stderrText.suffix(400))")
        }
        var figures = Figures(full: fullSeconds)
        if let error = empty["error"] as? String {
            figures.emptyError = error
            figures.reconcileOnly = empty["reconcile_seconds"] as? Double
            Timing.report("rust-nostr Client.sync into an empty database", String(format: "failed after %.2f s: “%@” (learning the %@ ids it lacks took %.2f s)",
                                                                                  empty["seconds"] as? Double ?? 0, error, "\(empty["needed"] ?? "?")",
                                                                                  figures.reconcileOnly ?? 0))
        } else {
            figures.empty = empty["seconds"] as? Double
            Timing.report("rust-nostr Client.sync into an empty database", String(format: "%.2f s, %@ received", figures.empty ?? 0,
                                                                                  "\(empty["received"] ?? "?")"))
        }
        Timing.report("rust-nostr Client.sync, every wrap held", String(format: "%.2f s, %@ received, %@ needed", fullSeconds,
                                                                        "\(full["received"] ?? "?")", "\(full["needed"] ?? "?")"))
        return figures
    }
}
