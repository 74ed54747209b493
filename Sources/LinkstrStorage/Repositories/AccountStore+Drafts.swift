import Foundation
import LinkstrDomain

/// Unsent composer text per session: sealed like every other content column, so a
/// draft survives a restart without lying on disk in plain text.
extension AccountStore {
    public struct StoredDraft: Equatable, Sendable, Codable {
        public var link: String
        public var note: String
        public init(link: String, note: String) { self.link = link; self.note = note }
    }

    public func drafts() throws -> [String: StoredDraft] {
        var out: [String: StoredDraft] = [:]
        for r in try db.query("SELECT session_id, value_enc FROM drafts WHERE owner = ?", [o]) {
            let sid = r["session_id"].text ?? ""
            let json = try cipher.openRequired(r["value_enc"], ctx("drafts.value", sid))
            guard let draft = try? JSONDecoder().decode(StoredDraft.self, from: Data(json.utf8)) else { throw StorageError.corrupt("a draft") }
            out[sid] = draft
        }
        return out
    }

    /// Keeps `draft` for the session (nil forgets it).
    public func setDraft(_ draft: StoredDraft?, for sessionID: String, now: Int64) throws {
        guard let draft else {
            try db.run("DELETE FROM drafts WHERE owner = ? AND session_id = ?", [o, .text(sessionID)])
            return
        }
        let json = String(decoding: try JSONEncoder().encode(draft), as: UTF8.self)
        try db.run("""
            INSERT INTO drafts (owner, session_id, value_enc, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (owner, session_id) DO UPDATE SET value_enc = excluded.value_enc, updated_at = excluded.updated_at
            """, [o, .text(sessionID), cipher.seal(json, ctx("drafts.value", sessionID)), .integer(now)])
    }
}
