import ArgumentParser
import Foundation
import LinkstrStorage

/// Dynamic shell completion: the active identity's session ids, read without the passphrase (ids are
/// stored in the clear; names are sealed, so they are not offered). Nothing is created or written.
enum Completion {
    static let sessionIDs = CompletionKind.custom { _, _, prefix in
        let paths = DataPaths.resolve(home: nil)
        guard FileManager.default.fileExists(atPath: paths.database.path),
              let owner = IdentityVault(paths: paths).activePubkey(),
              let db = try? Database(path: paths.database.path),
              let rows = try? db.query("""
                SELECT s.session_id FROM sessions s JOIN accounts a ON a.number = s.owner WHERE a.pubkey = ? ORDER BY s.session_id
                """, [.text(owner)]) else { return [] }
        return rows.compactMap { if case .text(let id) = $0["session_id"] { return id } else { return nil } }.filter { $0.hasPrefix(prefix) }
    }
}
