import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol

/// Asks NIP-05 about the names of the people we deal with (contacts, members of our sessions, the
/// senders of session requests): a profile's `nip05` is checked when first seen, when it changes and
/// at most once a day after that; what was found is kept sealed (`NIP05Check`). Bounded: a few
/// documents at a time, each within the delivery's deadline, `perRun` at most.
public struct NIP05Names: Sendable {
    public static let perRun = 64
    static let atOnce = 4

    let store: AccountStore
    let me: Pubkey
    let fetch: @Sendable (NIP05Relays.Identifier) async -> Result<String, InboxDelivery.NIP05Failure>

    public init(store: AccountStore, me: Pubkey,
                fetch: @escaping @Sendable (NIP05Relays.Identifier) async -> Result<String, InboxDelivery.NIP05Failure>) {
        self.store = store
        self.me = me
        self.fetch = fetch
    }

    /// Checks the names that are due; answers how many were checked.
    @discardableResult
    public func refresh(now: Int64) async throws -> Int {
        var due = [(Pubkey, NIP05Relays.Identifier)]()
        for person in try Self.people(store, me: me).sorted() {
            guard let text = try store.profileNIP05(person), let id = NIP05Relays.identifier(text) else { continue }
            if let check = try store.nip05Check(person), !check.isStale(for: text, now: now) { continue }
            due.append((person, id))
            if due.count == Self.perRun { break }
        }
        let fetch = self.fetch
        let answers = await Concurrently.map(due, atMost: Self.atOnce) { person, id in
            (person, id, await fetch(id))
        }
        for (person, id, answer) in answers {
            let verified = if case .success(let document) = answer { NIP05Check.verifies(document: document, id: id, pubkey: person) } else { false }
            try store.setNIP05Check(person, NIP05Check(identifier: id.text, verified: verified, checkedAt: now))
        }
        return answers.count
    }

    /// The people whose names are checked: contacts, members and creators of our sessions (requests too).
    public static func people(_ store: AccountStore, me: Pubkey) throws -> Set<Pubkey> {
        var people = Set(try store.contacts().map(\.pubkey))
        for session in try store.sessionSummaries(archived: nil) {
            people.formUnion(session.members)
            people.insert(session.creator)
        }
        people.remove(me)
        return people
    }

    /// Everyone's name as a `nip05` and what was found of it, for the front ends.
    public static func marks(_ store: AccountStore, people: some Sequence<Pubkey>) throws -> [Pubkey: NIP05Mark] {
        var marks = [Pubkey: NIP05Mark]()
        for person in people {
            guard let text = try store.profileNIP05(person), NIP05Relays.identifier(text) != nil else { continue }
            let check = try store.nip05Check(person)
            marks[person] = NIP05Mark(nip05: text, verified: check.flatMap { $0.identifier == NIP05Relays.identifier(text)?.text ? $0.verified : nil })
        }
        return marks
    }
}
