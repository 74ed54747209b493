/// Migration 14 (a faster store): accounts get a small number, and every table names its
/// owner by that number instead of the 64-character hex key. The owner leads every primary key and
/// index, so each entry was ~65 bytes longer than it needed to be: a batch of posts dirtied twice the
/// index pages it now does (a model of the two hot tables wrote 30 % faster). SQLite cannot change a
/// column's type or a foreign key in place, so each table is rebuilt: created anew (its columns as
/// schema 13 left them, `owner INTEGER … REFERENCES accounts(number)`), copied with the owner mapped,
/// the old one dropped and the new one renamed; the indexes are created again at the end. GRDB runs
/// it in one transaction with foreign keys off and checks them before it commits. Sealed values are
/// untouched: their associated data names the owner's key, which has not changed.
extension Migrations {
    static let numberedAccounts = """
        CREATE TABLE accounts_numbered (
            number INTEGER PRIMARY KEY,
            pubkey TEXT NOT NULL UNIQUE,
            wrapped_data_key BLOB NOT NULL,
            created_at INTEGER NOT NULL
        );
        INSERT INTO accounts_numbered (pubkey, wrapped_data_key, created_at) SELECT pubkey, wrapped_data_key, created_at FROM accounts ORDER BY created_at, pubkey;
        CREATE TABLE account_state_numbered (
            owner INTEGER PRIMARY KEY REFERENCES accounts(number) ON DELETE CASCADE,
            follow_watermark_at INTEGER,
            follow_watermark_id TEXT,
            history_restored INTEGER NOT NULL DEFAULT 0,
            profile_enc BLOB
        );
        INSERT INTO account_state_numbered (owner, follow_watermark_at, follow_watermark_id, history_restored, profile_enc)
            SELECT a.number, t.follow_watermark_at, t.follow_watermark_id, t.history_restored, t.profile_enc FROM account_state t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE account_state;
        ALTER TABLE account_state_numbered RENAME TO account_state;
        CREATE TABLE sessions_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
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
            last_post_id TEXT,
            request_decision INTEGER NOT NULL DEFAULT 0,
            last_author_enc BLOB,
            last_url_enc BLOB,
            PRIMARY KEY (owner, session_id)
        );
        INSERT INTO sessions_numbered (owner, session_id, name_enc, creator_enc, members_enc, is_member, updated_at, last_activity_at, unread, listed, archived, last_post_id, request_decision, last_author_enc, last_url_enc)
            SELECT a.number, t.session_id, t.name_enc, t.creator_enc, t.members_enc, t.is_member, t.updated_at, t.last_activity_at, t.unread, t.listed, t.archived, t.last_post_id, t.request_decision, t.last_author_enc, t.last_url_enc FROM sessions t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE sessions;
        ALTER TABLE sessions_numbered RENAME TO sessions;
        CREATE TABLE snapshots_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            is_create INTEGER NOT NULL,
            author_enc BLOB NOT NULL,
            members_enc BLOB NOT NULL,
            name_enc BLOB,
            PRIMARY KEY (owner, rumor_id)
        );
        INSERT INTO snapshots_numbered (owner, rumor_id, session_id, created_at, is_create, author_enc, members_enc, name_enc)
            SELECT a.number, t.rumor_id, t.session_id, t.created_at, t.is_create, t.author_enc, t.members_enc, t.name_enc FROM snapshots t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE snapshots;
        ALTER TABLE snapshots_numbered RENAME TO snapshots;
        CREATE TABLE session_deletions_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            author_enc BLOB NOT NULL,
            PRIMARY KEY (owner, rumor_id)
        );
        INSERT INTO session_deletions_numbered (owner, rumor_id, session_id, created_at, author_enc)
            SELECT a.number, t.rumor_id, t.session_id, t.created_at, t.author_enc FROM session_deletions t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE session_deletions;
        ALTER TABLE session_deletions_numbered RENAME TO session_deletions;
        CREATE TABLE session_members_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            member_ref TEXT NOT NULL,
            member_enc BLOB NOT NULL,
            active INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (owner, session_id, member_ref)
        );
        INSERT INTO session_members_numbered (owner, session_id, member_ref, member_enc, active, updated_at)
            SELECT a.number, t.session_id, t.member_ref, t.member_enc, t.active, t.updated_at FROM session_members t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE session_members;
        ALTER TABLE session_members_numbered RENAME TO session_members;
        CREATE TABLE membership_intervals_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            member_ref TEXT NOT NULL,
            member_enc BLOB NOT NULL,
            start_at INTEGER NOT NULL,
            end_at INTEGER,
            PRIMARY KEY (owner, session_id, member_ref, start_at)
        );
        INSERT INTO membership_intervals_numbered (owner, session_id, member_ref, member_enc, start_at, end_at)
            SELECT a.number, t.session_id, t.member_ref, t.member_enc, t.start_at, t.end_at FROM membership_intervals t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE membership_intervals;
        ALTER TABLE membership_intervals_numbered RENAME TO membership_intervals;
        CREATE TABLE posts_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
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
            sent_seq INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (owner, post_id)
        );
        INSERT INTO posts_numbered (owner, post_id, session_id, created_at, author_enc, url_enc, note_enc, wrap_ids, arrivals, inbound, read_at, notified, sent_seq)
            SELECT a.number, t.post_id, t.session_id, t.created_at, t.author_enc, t.url_enc, t.note_enc, t.wrap_ids, t.arrivals, t.inbound, t.read_at, t.notified, t.sent_seq FROM posts t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE posts;
        ALTER TABLE posts_numbered RENAME TO posts;
        CREATE TABLE reactions_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
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
        INSERT INTO reactions_numbered (owner, rumor_id, session_id, post_id, created_at, author_enc, emoji_enc, active, arrivals, notified)
            SELECT a.number, t.rumor_id, t.session_id, t.post_id, t.created_at, t.author_enc, t.emoji_enc, t.active, t.arrivals, t.notified FROM reactions t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE reactions;
        ALTER TABLE reactions_numbered RENAME TO reactions;
        CREATE TABLE tombstones_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            post_id TEXT NOT NULL,
            deleter_ref TEXT NOT NULL,
            deleter_enc BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            rumor_id TEXT NOT NULL,
            validated INTEGER NOT NULL,
            PRIMARY KEY (owner, session_id, post_id, deleter_ref)
        );
        INSERT INTO tombstones_numbered (owner, session_id, post_id, deleter_ref, deleter_enc, created_at, rumor_id, validated)
            SELECT a.number, t.session_id, t.post_id, t.deleter_ref, t.deleter_enc, t.created_at, t.rumor_id, t.validated FROM tombstones t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE tombstones;
        ALTER TABLE tombstones_numbered RENAME TO tombstones;
        CREATE TABLE staged_messages_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            session_id TEXT NOT NULL,
            post_id TEXT,
            created_at INTEGER NOT NULL,
            reason TEXT NOT NULL,
            body_enc BLOB NOT NULL,
            PRIMARY KEY (owner, rumor_id)
        );
        INSERT INTO staged_messages_numbered (owner, rumor_id, kind, session_id, post_id, created_at, reason, body_enc)
            SELECT a.number, t.rumor_id, t.kind, t.session_id, t.post_id, t.created_at, t.reason, t.body_enc FROM staged_messages t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE staged_messages;
        ALTER TABLE staged_messages_numbered RENAME TO staged_messages;
        CREATE TABLE contacts_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            pubkey_enc BLOB NOT NULL,
            alias_enc BLOB,
            PRIMARY KEY (owner, pubkey_ref)
        );
        INSERT INTO contacts_numbered (owner, pubkey_ref, pubkey_enc, alias_enc)
            SELECT a.number, t.pubkey_ref, t.pubkey_enc, t.alias_enc FROM contacts t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE contacts;
        ALTER TABLE contacts_numbered RENAME TO contacts;
        CREATE TABLE relays_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            url TEXT NOT NULL,
            enabled INTEGER NOT NULL DEFAULT 1,
            added_at INTEGER NOT NULL,
            PRIMARY KEY (owner, url)
        );
        INSERT INTO relays_numbered (owner, url, enabled, added_at)
            SELECT a.number, t.url, t.enabled, t.added_at FROM relays t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE relays;
        ALTER TABLE relays_numbered RENAME TO relays;
        CREATE TABLE processed_wraps_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            wrap_id TEXT NOT NULL,
            processed_at INTEGER NOT NULL,
            created_at INTEGER,
            PRIMARY KEY (owner, wrap_id)
        ) WITHOUT ROWID;
        INSERT INTO processed_wraps_numbered (owner, wrap_id, processed_at, created_at)
            SELECT a.number, t.wrap_id, t.processed_at, t.created_at FROM processed_wraps t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE processed_wraps;
        ALTER TABLE processed_wraps_numbered RENAME TO processed_wraps;
        CREATE TABLE link_metadata_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            url_ref TEXT NOT NULL,
            title_enc BLOB,
            thumbnail_enc BLOB,
            fetched_at INTEGER NOT NULL,
            PRIMARY KEY (owner, url_ref)
        );
        INSERT INTO link_metadata_numbered (owner, url_ref, title_enc, thumbnail_enc, fetched_at)
            SELECT a.number, t.url_ref, t.title_enc, t.thumbnail_enc, t.fetched_at FROM link_metadata t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE link_metadata;
        ALTER TABLE link_metadata_numbered RENAME TO link_metadata;
        CREATE TABLE settings_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value_enc BLOB NOT NULL,
            PRIMARY KEY (owner, key)
        );
        INSERT INTO settings_numbered (owner, key, value_enc)
            SELECT a.number, t.key, t.value_enc FROM settings t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE settings;
        ALTER TABLE settings_numbered RENAME TO settings;
        CREATE TABLE profiles_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            pubkey_enc BLOB NOT NULL,
            name_enc BLOB,
            created_at INTEGER NOT NULL,
            event_id TEXT NOT NULL,
            nip05_enc BLOB,
            PRIMARY KEY (owner, pubkey_ref)
        );
        INSERT INTO profiles_numbered (owner, pubkey_ref, pubkey_enc, name_enc, created_at, event_id, nip05_enc)
            SELECT a.number, t.pubkey_ref, t.pubkey_enc, t.name_enc, t.created_at, t.event_id, t.nip05_enc FROM profiles t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE profiles;
        ALTER TABLE profiles_numbered RENAME TO profiles;
        CREATE TABLE inbox_relays_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            kind INTEGER NOT NULL,
            relays_enc BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            event_id TEXT NOT NULL,
            fetched_at INTEGER NOT NULL DEFAULT 0,
            found_on_enc BLOB,
            PRIMARY KEY (owner, pubkey_ref, kind)
        );
        INSERT INTO inbox_relays_numbered (owner, pubkey_ref, kind, relays_enc, created_at, event_id, fetched_at, found_on_enc)
            SELECT a.number, t.pubkey_ref, t.kind, t.relays_enc, t.created_at, t.event_id, t.fetched_at, t.found_on_enc FROM inbox_relays t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE inbox_relays;
        ALTER TABLE inbox_relays_numbered RENAME TO inbox_relays;
        CREATE TABLE preferences_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            d_tag TEXT NOT NULL,
            target_ref TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            event_id TEXT NOT NULL,
            value_enc BLOB NOT NULL,
            event_enc BLOB NOT NULL,
            pending INTEGER NOT NULL,
            PRIMARY KEY (owner, d_tag)
        );
        INSERT INTO preferences_numbered (owner, d_tag, target_ref, created_at, event_id, value_enc, event_enc, pending)
            SELECT a.number, t.d_tag, t.target_ref, t.created_at, t.event_id, t.value_enc, t.event_enc, t.pending FROM preferences t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE preferences;
        ALTER TABLE preferences_numbered RENAME TO preferences;
        CREATE TABLE drafts_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            value_enc BLOB NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (owner, session_id)
        );
        INSERT INTO drafts_numbered (owner, session_id, value_enc, updated_at)
            SELECT a.number, t.session_id, t.value_enc, t.updated_at FROM drafts t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE drafts;
        ALTER TABLE drafts_numbered RENAME TO drafts;
        CREATE TABLE deliveries_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            rumor_id TEXT NOT NULL,
            member_ref TEXT NOT NULL,
            outcome_enc BLOB NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (owner, rumor_id, member_ref)
        );
        INSERT INTO deliveries_numbered (owner, rumor_id, member_ref, outcome_enc, updated_at)
            SELECT a.number, t.rumor_id, t.member_ref, t.outcome_enc, t.updated_at FROM deliveries t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE deliveries;
        ALTER TABLE deliveries_numbered RENAME TO deliveries;
        CREATE TABLE relay_hints_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            pubkey_ref TEXT NOT NULL,
            relays_enc BLOB NOT NULL,
            PRIMARY KEY (owner, pubkey_ref)
        );
        INSERT INTO relay_hints_numbered (owner, pubkey_ref, relays_enc)
            SELECT a.number, t.pubkey_ref, t.relays_enc FROM relay_hints t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE relay_hints;
        ALTER TABLE relay_hints_numbered RENAME TO relay_hints;
        CREATE TABLE negentropy_refusals_numbered (
            owner INTEGER NOT NULL REFERENCES accounts(number) ON DELETE CASCADE,
            url TEXT NOT NULL,
            refused_at INTEGER NOT NULL,
            PRIMARY KEY (owner, url)
        ) WITHOUT ROWID;
        INSERT INTO negentropy_refusals_numbered (owner, url, refused_at)
            SELECT a.number, t.url, t.refused_at FROM negentropy_refusals t JOIN accounts_numbered a ON a.pubkey = t.owner;
        DROP TABLE negentropy_refusals;
        ALTER TABLE negentropy_refusals_numbered RENAME TO negentropy_refusals;
        DROP TABLE accounts;
        ALTER TABLE accounts_numbered RENAME TO accounts;
        CREATE INDEX sessions_by_activity ON sessions(owner, listed, archived, last_activity_at);
        CREATE INDEX reactions_by_post ON reactions(owner, post_id);
        CREATE INDEX staged_by_session ON staged_messages(owner, session_id);
        CREATE INDEX staged_by_post ON staged_messages(owner, post_id);
        CREATE INDEX reactions_by_session ON reactions(owner, session_id);
        CREATE INDEX tombstones_by_post ON tombstones(owner, post_id);
        CREATE INDEX posts_in_order ON posts(owner, session_id, created_at, sent_seq, post_id);
        CREATE INDEX preferences_by_target ON preferences(owner, target_ref);
        CREATE INDEX deliveries_by_member ON deliveries(owner, member_ref, updated_at);
        CREATE INDEX posts_unread ON posts(owner, session_id) WHERE inbound = 1 AND read_at IS NULL;
        """
}
