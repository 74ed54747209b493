import LinkstrDomain
import LinkstrStorage

extension PersonNaming {
    /// The naming rule over what `store` holds (contacts with their aliases, profile names), for the
    /// CLI's output; the app keeps the same rule over what it loaded. `me` is left unnamed ("you" is the
    /// app's word for a screen; the CLI prints the key), as `posts` has always printed it.
    public init(_ store: AccountStore) throws {
        self.init(me: nil, contacts: try store.contacts().map { ($0.pubkey, $0.alias) }, profileNames: try store.profileNames())
    }
}
