import GRDB

/// Numbered schema migrations, run by GRDB's `DatabaseMigrator` (each in its own transaction, recorded
/// in `grdb_migrations`). Each also sets `PRAGMA user_version`: databases written before GRDB kept
/// their schema number there only, so a migration that number already covers is recorded as applied
/// without running again (an old database upgrades in place), and the file header keeps telling a
/// linkstr database from any other (`LocalStore.checkExisting`).
/// Every table is owned by an account (by its number since migration 14, by its hex pubkey before);
/// sensitive columns (`*_enc`) hold AEAD-sealed values.
enum Migrations {
    static let all: [String] = [
        // 1: the initial schema.
        initialSchema,
        // 2: other people's profile names (kind 0), newest event per person.
        """
        CREATE TABLE profiles (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            pubkey_enc BLOB NOT NULL,
            name_enc BLOB,
            created_at INTEGER NOT NULL,
            event_id TEXT NOT NULL,
            PRIMARY KEY (owner, pubkey_ref)
        );
        """,
        // 3: other people's inbox relays (kind 10050) and NIP-65 read relays (kind 10002), newest per kind.
        """
        CREATE TABLE inbox_relays (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            kind INTEGER NOT NULL,
            relays_enc BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            event_id TEXT NOT NULL,
            PRIMARY KEY (owner, pubkey_ref, kind)
        );
        """,
        // 4: the order in which this device sent its posts, for ties within one second (0: received).
        """
        ALTER TABLE posts ADD COLUMN sent_seq INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX posts_in_order ON posts(owner, session_id, created_at, sent_seq, post_id);
        """,
        // 5: the newest visible post of each session, for its list row.
        """
        ALTER TABLE sessions ADD COLUMN last_post_id TEXT;
        UPDATE sessions SET last_post_id = (SELECT p.post_id FROM posts p WHERE p.owner = sessions.owner AND p.session_id = sessions.session_id
                                            ORDER BY p.created_at DESC, p.sent_seq DESC, p.post_id DESC LIMIT 1);
        """,
        // 6: the user's decision on a session request (0 undecided, 1 accepted, 2 declined).
        // Sessions already here were in the user's list before requests existed: they stay there.
        """
        ALTER TABLE sessions ADD COLUMN request_decision INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET request_decision = 1;
        """,
        // 7: private preferences (wire 2026 §3, kind 30078), newest per `d` tag; the preference and the
        // signed event sealed; `target_ref` is the blind reference of what it is about ("alias:…").
        """
        CREATE TABLE preferences (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            d_tag TEXT NOT NULL,
            target_ref TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            event_id TEXT NOT NULL,
            value_enc BLOB NOT NULL,
            event_enc BLOB NOT NULL,
            pending INTEGER NOT NULL,
            PRIMARY KEY (owner, d_tag)
        );
        CREATE INDEX preferences_by_target ON preferences(owner, target_ref);
        """,
        // 8: `sessions.unread` counts the unread posts (it was 0 or 1).
        """
        UPDATE sessions SET unread = (SELECT count(*) FROM posts p WHERE p.owner = sessions.owner AND p.session_id = sessions.session_id
                                      AND p.inbound = 1 AND p.read_at IS NULL)
            WHERE listed = 1;
        """,
        // 9: unsent composer text per session, sealed.
        """
        CREATE TABLE drafts (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            value_enc BLOB NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (owner, session_id)
        );
        """,
        // 10: the newest post's sealed author and link copied onto its session's row (still sealed to
        // the post: opened with the post's context), so the list reads one table instead of joining
        // a random page of `posts` per row (it was a third of the list's time).
        """
        ALTER TABLE sessions ADD COLUMN last_author_enc BLOB;
        ALTER TABLE sessions ADD COLUMN last_url_enc BLOB;
        UPDATE sessions SET
            last_author_enc = (SELECT p.author_enc FROM posts p WHERE p.owner = sessions.owner AND p.post_id = sessions.last_post_id),
            last_url_enc = (SELECT p.url_enc FROM posts p WHERE p.owner = sessions.owner AND p.post_id = sessions.last_post_id)
            WHERE last_post_id IS NOT NULL;
        """,
        // 11: When a relay list was fetched and where it was found (sealed); the NIP-05
        // identifier a profile names (sealed: where to look for their relays); each member's
        // delivery of what we sent (sealed `MemberDelivery`, by the member's blind reference); the
        // relays someone was added with (an nprofile's hints, sealed).
        """
        ALTER TABLE inbox_relays ADD COLUMN fetched_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE inbox_relays ADD COLUMN found_on_enc BLOB;
        ALTER TABLE profiles ADD COLUMN nip05_enc BLOB;
        CREATE TABLE deliveries (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            member_ref TEXT NOT NULL,
            outcome_enc BLOB NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (owner, rumor_id, member_ref)
        );
        CREATE INDEX deliveries_by_member ON deliveries(owner, member_ref, updated_at);
        CREATE TABLE relay_hints (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            relays_enc BLOB NOT NULL,
            PRIMARY KEY (owner, pubkey_ref)
        );
        """,
        // 12: Each processed wrap's own `created_at` when it was addressed to us (the
        // local set a negentropy sync compares; rows from before stay NULL until a sync fetches them
        // again and fills it in); when a relay last refused NIP-77 (it is paged instead for a while).
        """
        ALTER TABLE processed_wraps ADD COLUMN created_at INTEGER;
        CREATE TABLE negentropy_refusals (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            url TEXT NOT NULL,
            refused_at INTEGER NOT NULL,
            PRIMARY KEY (owner, url)
        ) WITHOUT ROWID;
        """,
        // 13: A session's unread count reads a small index of unread posts
        // instead of every post of the session at each batch; `posts_in_order` (4) starts with the same
        // columns as `posts_by_session`, which every post paid to keep up to date for nothing.
        """
        DROP INDEX posts_by_session;
        CREATE INDEX posts_unread ON posts(owner, session_id) WHERE inbound = 1 AND read_at IS NULL;
        """,
        // 14: Accounts are numbered and every table's owner is that number (see the file).
        numberedAccounts,
        // 15: Valid events a sync brought and we keep nothing of (a profile or relay list older
        // than ours, another app's kind 30078 under our key), by scope (`preferences`, or an author's
        // blind reference): NIP-77 counts them as held, so a relay that keeps them does not send them
        // at every start (`AccountStore+PassedOver`).
        """
        CREATE TABLE passed_over_events (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            scope TEXT NOT NULL,
            event_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (owner, scope, event_id)
        ) WITHOUT ROWID;
        """,
        // 16: a post dated far ahead of its arrival sorts by the arrival and keeps the date it claimed,
        // to be said (`PostPlacement`); NULL for every other post.
        """
        ALTER TABLE posts ADD COLUMN dated_ahead INTEGER;
        """,
        // 17: the relays that accepted a member's copies of what we sent (sealed, a line each): what
        // "shared relays" in the doctor counts besides the ones both lists name.
        """
        ALTER TABLE deliveries ADD COLUMN accepted_on_enc BLOB;
        """,
        // 18: what NIP-05 said of people's names (the identifier sealed; `NIP05Check`), asked again daily.
        """
        CREATE TABLE nip05_checks (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            identifier_enc BLOB NOT NULL,
            verified INTEGER NOT NULL,
            checked_at INTEGER NOT NULL,
            PRIMARY KEY (owner, pubkey_ref)
        ) WITHOUT ROWID;
        """,
        // 19: the send queue: what the user did, applied here and waiting for a relay, as the
        // exact events that will go (sealed, with what it is); the session and post ids in clear like every table's.
        """
        CREATE TABLE send_queue (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            item INTEGER NOT NULL,
            session_id TEXT NOT NULL,
            post_id TEXT,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_at INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            approved INTEGER NOT NULL DEFAULT 0,
            size INTEGER NOT NULL,
            reason_enc BLOB,
            item_enc BLOB NOT NULL,
            PRIMARY KEY (owner, item)
        ) WITHOUT ROWID;
        """,
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (index, sql) in all.enumerated() {
            let number = index + 1
            migrator.registerMigration("\(number)") { db in
                let current = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                guard current < number else { return }
                try db.execute(sql: sql)
                try db.execute(sql: "PRAGMA user_version = \(number)")
            }
        }
        return migrator
    }

    /// For a database opened read-only: it must need no migration (one cannot be written).
    static func checkCurrent(_ db: Database) throws(StorageError) {
        do {
            let (applied, superseded) = try db.read { c in (try migrator.hasCompletedMigrations(c.db), try migrator.hasBeenSuperseded(c.db)) }
            if superseded { throw StorageError.corrupt("the database was written by a newer linkstr") }
            if !applied {
                throw StorageError.io("the database was written by an older linkstr and needs an upgrade, which cannot be saved in a read-only data directory; "
                                      + "open it once where it can be written.")
            }
        } catch {
            throw StorageError(error)
        }
    }

    static func migrate(_ db: Database) throws(StorageError) {
        do {
            let (current, superseded) = try db.read { c in
                (try Int.fetchOne(c.db, sql: "PRAGMA user_version") ?? 0, try migrator.hasBeenSuperseded(c.db))
            }
            guard current <= all.count, !superseded else {
                throw StorageError.corrupt("the database was written by a newer linkstr (schema \(current), this build knows \(all.count))")
            }
            try migrator.migrate(db.writer)
            if (1..<rebuiltEveryTable).contains(current) { compactAfterRebuild(db) }
        } catch {
            throw StorageError(error)
        }
    }

    /// Migration 14 copied every table, leaving the old ones' pages free: the file would keep that size
    /// for good. Compacting once gives it back. Best effort (it needs room for a copy): the upgrade
    /// stands either way, and the free pages are reused as the database grows.
    static let rebuiltEveryTable = 14
    private static func compactAfterRebuild(_ db: Database) {
        do { try db.writer.vacuum() } catch { storageLog.warning("compacting the database after its upgrade failed: \(error)") }
    }
}
