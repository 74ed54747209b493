import LinkstrDomain

/// A session's staged roots, read in one query when the ingest rules are about to check every post of
/// the session again (`rederive`, through `postIDs(inSession:)`): the create that a cold sync meets after
/// hundreds of its session's posts (NIP-59 randomises the wraps' dates, so a session's posts come
/// before or after it) releases them all, and each was read with two queries of its own, one of them a
/// miss in `posts` (a cold sync in wrap order cost 34 µs a message against 18 in order).
///
/// Each entry is the row as it was when read; it is handed out once (`take`) and forgotten as soon as
/// the id is written or removed, so it can never stand for a row that changed since. A class, so the
/// store's read methods (not `mutating`) can take from it.
final class PrimedStagedRoots {
    struct Row {
        let reason: String
        let body: SQLValue
    }

    private var rows: [String: Row] = [:]

    /// Replaces what was primed with these rows (one session at a time: `rederive` reads them at once).
    func prime(_ rows: [String: Row]) { self.rows = rows }

    func take(_ id: String) -> Row? { rows.removeValue(forKey: id) }

    func forget(_ id: String) { rows.removeValue(forKey: id) }
}
