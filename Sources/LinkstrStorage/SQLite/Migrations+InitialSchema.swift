/// Migration 1: the schema linkstr started with (later migrations change it; `Migrations.all`).
extension Migrations {
    static let initialSchema =
        """
        CREATE TABLE accounts (
            pubkey TEXT PRIMARY KEY,
            wrapped_data_key BLOB NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE account_state (
            owner TEXT PRIMARY KEY REFERENCES accounts(pubkey) ON DELETE CASCADE,
            follow_watermark_at INTEGER,
            follow_watermark_id TEXT,
            history_restored INTEGER NOT NULL DEFAULT 0,
            profile_enc BLOB
        );
        CREATE TABLE sessions (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            name_enc BLOB,
            creator_enc BLOB,
            members_enc BLOB,
            is_member INTEGER NOT NULL DEFAULT 0,
            updated_at INTEGER NOT NULL DEFAULT 0,
            last_activity_at INTEGER NOT NULL DEFAULT 0,
            unread INTEGER NOT NULL DEFAULT 0,
            listed INTEGER NOT NULL DEFAULT 0,
            archived INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (owner, session_id)
        );
        CREATE INDEX sessions_by_activity ON sessions(owner, listed, archived, last_activity_at);
        CREATE TABLE snapshots (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            is_create INTEGER NOT NULL,
            author_enc BLOB NOT NULL,
            members_enc BLOB NOT NULL,
            name_enc BLOB,
            PRIMARY KEY (owner, rumor_id)
        );
        CREATE TABLE session_deletions (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            author_enc BLOB NOT NULL,
            PRIMARY KEY (owner, rumor_id)
        );
        CREATE TABLE session_members (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            member_ref TEXT NOT NULL,
            member_enc BLOB NOT NULL,
            active INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (owner, session_id, member_ref)
        );
        CREATE TABLE membership_intervals (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            member_ref TEXT NOT NULL,
            member_enc BLOB NOT NULL,
            start_at INTEGER NOT NULL,
            end_at INTEGER,
            PRIMARY KEY (owner, session_id, member_ref, start_at)
        );
        CREATE TABLE posts (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            post_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            author_enc BLOB NOT NULL,
            url_enc BLOB NOT NULL,
            note_enc BLOB,
            wrap_ids TEXT NOT NULL,
            arrivals TEXT NOT NULL,
            inbound INTEGER NOT NULL,
            read_at INTEGER,
            notified INTEGER NOT NULL,
            PRIMARY KEY (owner, post_id)
        );
        CREATE INDEX posts_by_session ON posts(owner, session_id, created_at);
        CREATE TABLE reactions (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            post_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            author_enc BLOB NOT NULL,
            emoji_enc BLOB NOT NULL,
            active INTEGER NOT NULL,
            arrivals TEXT NOT NULL,
            notified INTEGER NOT NULL,
            PRIMARY KEY (owner, rumor_id)
        );
        CREATE INDEX reactions_by_post ON reactions(owner, post_id);
        CREATE TABLE tombstones (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            post_id TEXT NOT NULL,
            deleter_ref TEXT NOT NULL,
            deleter_enc BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            rumor_id TEXT NOT NULL,
            validated INTEGER NOT NULL,
            PRIMARY KEY (owner, session_id, post_id, deleter_ref)
        );
        CREATE TABLE staged_messages (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            session_id TEXT NOT NULL,
            post_id TEXT,
            created_at INTEGER NOT NULL,
            reason TEXT NOT NULL,
            body_enc BLOB NOT NULL,
            PRIMARY KEY (owner, rumor_id)
        );
        CREATE INDEX staged_by_session ON staged_messages(owner, session_id);
        CREATE INDEX staged_by_post ON staged_messages(owner, post_id);
        CREATE INDEX reactions_by_session ON reactions(owner, session_id);
        CREATE INDEX tombstones_by_post ON tombstones(owner, post_id);
        CREATE TABLE contacts (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            pubkey_enc BLOB NOT NULL,
            alias_enc BLOB,
            PRIMARY KEY (owner, pubkey_ref)
        );
        CREATE TABLE relays (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            url TEXT NOT NULL,
            enabled INTEGER NOT NULL DEFAULT 1,
            added_at INTEGER NOT NULL,
            PRIMARY KEY (owner, url)
        );
        CREATE TABLE processed_wraps (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            wrap_id TEXT NOT NULL,
            processed_at INTEGER NOT NULL,
            PRIMARY KEY (owner, wrap_id)
        ) WITHOUT ROWID;
        CREATE TABLE link_metadata (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            url_ref TEXT NOT NULL,
            title_enc BLOB,
            thumbnail_enc BLOB,
            fetched_at INTEGER NOT NULL,
            PRIMARY KEY (owner, url_ref)
        );
        CREATE TABLE settings (
            owner TEXT NOT NULL REFERENCES accounts(pubkey) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value_enc BLOB NOT NULL,
            PRIMARY KEY (owner, key)
        );
        """
}
