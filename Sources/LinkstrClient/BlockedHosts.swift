import Foundation
import LinkstrDomain
import LinkstrLogging
import LinkstrStorage

/// The hosts of the relays we blocked, for the web fetches (a page's title, a picture): a blocked relay
/// is never contacted, over HTTP neither. Read from the store at each fetch, so a block is in force at
/// once; a store that cannot be read refuses nothing (and says so in the log).
struct BlockedHosts: Sendable {
    let store: AccountStore

    var refuses: @Sendable (String) -> Bool {
        let store = self.store
        return { host in
            do {
                return try store.blockedRelays().contains { URL(string: $0)?.host?.lowercased() == host.lowercased() }
            } catch {
                LinkstrLogging.logger("relays").warning("the blocked relays could not be read", metadata: ["error": "\(type(of: error))"])
                return false
            }
        }
    }
}
