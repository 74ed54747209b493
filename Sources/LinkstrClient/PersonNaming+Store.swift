import LinkstrDomain
import LinkstrStorage

extension PersonNaming {
    /// The naming rule over what `store` holds (contacts with their aliases, profile names), for the
    /// CLI's output; the app keeps the same rule over what it loaded. The account's own key is "you"
    /// there too (`posts` printed our own posts as "by npub…").
    public init(_ store: AccountStore) throws {
        self.init(me: store.owner, contacts: try store.contacts().map { ($0.pubkey, $0.alias) }, profileNames: try store.profileNames())
    }
}
