import LinkstrDomain

/// Finding and dropping rows whose sealed values no longer open. Each table says
/// how its sealed columns were sealed; a dropped row comes back with the next sync where relays still
/// hold it: a post's gift wraps are forgotten as processed, and when a row carries no wrap id
/// (snapshots, reactions, tombstones, staged messages) every wrap is, so history is read again.
extension AccountStore {
    public struct DamageReport: Equatable, Sendable {
        /// Damaged rows by table.
        public var rows: [String: Int] = [:]
        public var total: Int { rows.values.reduce(0, +) }
        /// True when the next sync reads the whole history again to bring dropped rows back.
        public var historyReread = false

        public init(rows: [String: Int] = [:], historyReread: Bool = false) { self.rows = rows; self.historyReread = historyReread }

        /// "3 posts, 1 reaction" (tables with damage only).
        public var summary: String {
            rows.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ")
        }
    }

    struct SealedColumn {
        let name: String
        let required: Bool
        let context: (Row) -> String
    }

    struct SealedTable {
        let name: String
        let columns: [SealedColumn]
    }

    /// Every sealed column of the schema, with the context it was sealed under.
    var sealedTables: [SealedTable] {
        func column(_ name: String, _ required: Bool, _ context: @escaping (Row) -> String) -> SealedColumn {
            SealedColumn(name: name, required: required, context: context)
        }
        func text(_ r: Row, _ name: String) -> String { r[name].text ?? "" }
        return [
            SealedTable(name: "sessions", columns: [
                column("name_enc", false) { self.ctx("sessions.name", text($0, "session_id")) },
                column("creator_enc", false) { self.ctx("sessions.creator", text($0, "session_id")) },
                column("members_enc", false) { self.ctx("sessions.members", text($0, "session_id")) },
                column("last_author_enc", false) { self.ctx("posts.author", text($0, "last_post_id")) },
                column("last_url_enc", false) { self.ctx("posts.url", text($0, "last_post_id")) },
            ]),
            SealedTable(name: "snapshots", columns: [
                column("author_enc", true) { self.ctx("snapshots.author", text($0, "rumor_id")) },
                column("members_enc", true) { self.ctx("snapshots.members", text($0, "rumor_id")) },
                column("name_enc", false) { self.ctx("snapshots.name", text($0, "rumor_id")) },
            ]),
            SealedTable(name: "session_deletions", columns: [
                column("author_enc", true) { self.ctx("session_deletions.author", text($0, "rumor_id")) },
            ]),
            SealedTable(name: "session_members", columns: [
                column("member_enc", true) { self.ctx("session_members.member", text($0, "session_id") + "/" + text($0, "member_ref")) },
            ]),
            SealedTable(name: "membership_intervals", columns: [
                column("member_enc", true) {
                    self.ctx("membership_intervals.member", "\(text($0, "session_id"))/\(text($0, "member_ref"))/\($0["start_at"].int ?? 0)")
                },
            ]),
            SealedTable(name: "posts", columns: [
                column("author_enc", true) { self.ctx("posts.author", text($0, "post_id")) },
                column("url_enc", true) { self.ctx("posts.url", text($0, "post_id")) },
                column("note_enc", false) { self.ctx("posts.note", text($0, "post_id")) },
            ]),
            SealedTable(name: "reactions", columns: [
                column("author_enc", true) { self.ctx("reactions.author", text($0, "rumor_id")) },
                column("emoji_enc", true) { self.ctx("reactions.emoji", text($0, "rumor_id")) },
            ]),
            SealedTable(name: "tombstones", columns: [
                column("deleter_enc", true) { self.ctx("tombstones.deleter", text($0, "session_id") + "/" + text($0, "post_id")) },
            ]),
            SealedTable(name: "staged_messages", columns: [
                column("body_enc", true) { self.ctx("staged_messages.body", text($0, "rumor_id")) },
            ]),
            SealedTable(name: "contacts", columns: [
                column("pubkey_enc", true) { self.ctx("contacts.pubkey", text($0, "pubkey_ref")) },
                column("alias_enc", false) { self.ctx("contacts.alias", text($0, "pubkey_ref")) },
            ]),
            SealedTable(name: "profiles", columns: [
                column("pubkey_enc", true) { self.ctx("profiles.pubkey", text($0, "pubkey_ref")) },
                column("name_enc", false) { self.ctx("profiles.name", text($0, "pubkey_ref")) },
            ]),
            SealedTable(name: "inbox_relays", columns: [
                column("relays_enc", true) { self.ctx("inbox_relays.\($0["kind"].int ?? 0)", text($0, "pubkey_ref")) },
            ]),
            SealedTable(name: "link_metadata", columns: [
                column("title_enc", false) { self.ctx("link_metadata.title", text($0, "url_ref")) },
                column("thumbnail_enc", false) { self.ctx("link_metadata.thumbnail", text($0, "url_ref")) },
            ]),
            SealedTable(name: "settings", columns: [
                column("value_enc", true) { self.ctx("settings", text($0, "key")) },
            ]),
            SealedTable(name: "preferences", columns: [
                column("value_enc", true) { self.ctx("preferences.value", text($0, "d_tag")) },
                column("event_enc", true) { self.ctx("preferences.event", text($0, "d_tag")) },
            ]),
            SealedTable(name: "drafts", columns: [
                column("value_enc", true) { self.ctx("drafts.value", text($0, "session_id")) },
            ]),
        ]
    }

    /// The rowids of every row of the account whose sealed values do not all open, by table.
    func damagedRowIDs(_ c: Connection) throws -> [String: [(rowid: Int64, row: Row)]] {
        var found = [String: [(rowid: Int64, row: Row)]]()
        for table in sealedTables {
            for r in try c.query("SELECT rowid AS linkstr_rowid, * FROM \(table.name) WHERE owner = ?", [o]) {
                let opens = table.columns.allSatisfy { column in
                    do {
                        let value = try cipher.open(r[column.name], column.context(r))
                        return value != nil || !column.required
                    } catch { return false }
                }
                if !opens { found[table.name, default: []].append((r["linkstr_rowid"].int ?? 0, r)) }
            }
        }
        return found
    }

    /// Reads every sealed value of the account once; nothing is changed.
    public func findDamagedRows() throws -> DamageReport {
        try db.read { c in
            var report = DamageReport()
            for (table, rows) in try damagedRowIDs(c) { report.rows[table] = rows.count }
            report.historyReread = !Set(report.rows.keys).isDisjoint(with: Self.rereadTables)
            return report
        }
    }

    /// Tables whose rows carry no gift-wrap id: bringing one back means reading the history again.
    static let rereadTables: Set<String> = ["snapshots", "session_deletions", "reactions", "tombstones", "staged_messages"]

    /// Drops every damaged row in one transaction and arranges for the next sync to bring them back.
    /// Rows derived from others (a session's list row, its members) are rewritten instead of dropped.
    @discardableResult
    public func repairDamagedRows() throws -> DamageReport {
        try writing { scope in
            let c = scope.c
            let damaged = try damagedRowIDs(c)
            var report = DamageReport()
            var touchedSessions = Set<String>()
            for (table, rows) in damaged {
                report.rows[table] = rows.count
                for (rowid, row) in rows {
                    if let sid = row["session_id"].text { touchedSessions.insert(sid) }
                    // A list row keeps the user's decision and archive flag: it is rewritten below.
                    if table == "sessions" { continue }
                    try c.run("DELETE FROM \(table) WHERE rowid = ?", [.integer(rowid)])
                    if table == "posts" {
                        let wraps = RecordCodec.commaList(row["wrap_ids"].text ?? "")
                        if !wraps.isEmpty {
                            _ = try c.query(in: wraps, "DELETE FROM processed_wraps WHERE owner = ? AND wrap_id IN (%@)", leading: [o])
                        }
                    }
                }
            }
            if damaged["contacts"] != nil {
                // The list is taken again from the relays' newest kind 3, not republished without them.
                try c.run("UPDATE account_state SET follow_watermark_at = NULL, follow_watermark_id = NULL WHERE owner = ?", [o])
            }
            report.historyReread = !Set(damaged.keys).isDisjoint(with: Self.rereadTables)
            if report.historyReread { try c.run("DELETE FROM processed_wraps WHERE owner = ?", [o]) }
            // Sessions derived again from the rows that remain; their list rows and members rewritten.
            let sessions = try loadSessions(c)
            scope.replaceSessions(sessions)
            let rewrite = damaged["sessions"] != nil || damaged["session_members"] != nil || damaged["membership_intervals"] != nil
                ? Set(sessions.keys) : touchedSessions
            for id in rewrite { if let s = sessions[id] { try writeSessionRow(s, membersChanged: true, c) } }
            for id in touchedSessions.union(rewrite) { try refreshAggregates(id, scope) }
            for (rowid, row) in damaged["sessions"] ?? [] where sessions[row["session_id"].text ?? ""] == nil {
                try c.run("DELETE FROM sessions WHERE rowid = ?", [.integer(rowid)])
            }
            return report
        }
    }
}
