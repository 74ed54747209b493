import Synchronization

/// A sealed value that no longer opens (a bad sector, an edited file, a damaged copy) costs only its
/// row: readers leave the row out and note it here, and `repairDamagedRows` drops such rows so the
/// next sync can bring them back. Before, one bad field made its whole session unreadable.
public struct DamagedRow: Hashable, Sendable {
    public let table: String
    public let key: String
}

/// The damaged rows one account's readers met in this process.
final class DamageLedger: Sendable {
    private let rows = Mutex<Set<DamagedRow>>([])

    func note(_ row: DamagedRow) {
        if rows.withLock({ $0.insert(row).inserted }) { DamagedRows.seenByThisProcess.add(1, ordering: .relaxed) }
    }

    var count: Int { rows.withLock { $0.count } }
}

public enum DamagedRows {
    /// Damaged rows that any account of this process left out (the CLI says so once, at the end).
    public static let seenByThisProcess = Atomic<Int>(0)

    /// The one sentence both front ends say about them.
    public static func notice(_ count: Int) -> String {
        "\(count) damaged \(count == 1 ? "record" : "records") on this device could not be read and \(count == 1 ? "was" : "were") left out; "
            + "`linkstr repair` (in the app :repair) drops them, and the next sync fetches what relays still hold."
    }

    /// Whether `error` is a sealed value that does not open (as opposed to the database failing).
    static func isDamage(_ error: any Error) -> Bool {
        switch error as? StorageError {
        case .cannotDecrypt?, .corrupt?: return true
        default: return false
        }
    }
}

extension AccountStore {
    /// `decode`'s value, or nil when the row's sealed values are damaged (the row is noted, not fatal).
    func readable<T>(_ table: String, _ key: String, _ decode: () throws -> T) throws -> T? {
        do { return try decode() } catch where DamagedRows.isDamage(error) {
            damage.note(DamagedRow(table: table, key: key))
            return nil
        }
    }

    /// Damaged rows this account's readers left out so far in this process.
    public var damagedRowsSeen: Int { damage.count }
}
