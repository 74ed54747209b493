import ArgumentParser
import LinkstrClient
import LinkstrDomain
import NostrProtocol

struct ContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "contacts", abstract: "Your follow list (kind 3) and private aliases.",
                                                    subcommands: [Add.self, Remove.self, List.self, AddedYou.self])

    struct Add: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Follow someone (publishes the follow list); --alias is private.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "npub, nostr:npub…, nprofile (its relays are kept, to find their lists there) or hex.") var key: String
        @Option(help: "A private name for them: only your own devices can read it (synced encrypted to yourself).") var alias: String?
        @Flag(help: "Queue the follow-list edit and return at once; it is made on the newest list a relay holds at the next sync (or in the app), and the contact appears then.")
        var queue = false

        func execute() async throws {
            let pk = try PubkeyNormalizer.cliKey(key)
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            if queue {
                let q = try await ctx.withActions { actions -> AccountActions.Queued? in
                    try actions.keepRelayHints(pk, from: key)
                    return try await actions.queueAddContact(pk, alias: alias, drain: false)
                }
                if let q { return QueuedOutput.print(q, json: global.json, shown: (try? PublicKey(hex: pk))?.npub ?? pk) }
                return Output.say((try? PublicKey(hex: pk))?.npub ?? pk, json: global.json, Output.key(pk) + [("alias", alias.map { .string($0) } ?? .null)])
            }
            // Re-adding only updates the alias (no republish).
            try await ctx.withActions {
                try await $0.addContact(pk, alias: alias)
                try $0.keepRelayHints(pk, from: key)
            }
            Output.say((try? PublicKey(hex: pk))?.npub ?? pk, json: global.json, Output.key(pk) + [("alias", alias.map { .string($0) } ?? .null)])
        }
    }

    struct Remove: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Unfollow (publishes the follow list).")
        @OptionGroup var global: GlobalOptions
        @Argument var key: String
        @Flag(help: "Queue the follow-list edit and return at once; it is made at the next sync (or in the app).") var queue = false
        func execute() async throws {
            guard let pk = PubkeyNormalizer.fromAnyForm(key) else { throw CLIError("that is not a public key.", .invalidInput) }
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            if queue {
                let q = try await ctx.withActions { try await $0.queueRemoveContact(pk, drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: nil)
            }
            try await ctx.withActions { try await $0.removeContact(pk) }
        }
    }

    struct AddedYou: LinkstrCommand {
        static let configuration = CommandConfiguration(
            commandName: "added-you",
            abstract: "People whose follow list names you (asked of your relays now; nothing is published). Add one with `contacts add`.")
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            let answer = try await ctx.withActions { try await $0.addedYou() }
            let followers = answer.followers
            if !answer.complete { printError(AddedYouRule.partialNote) }
            if global.json {
                printLine(Output.json(.array(followers.map { f in
                    .object(JSONObject([("pubkey", .string(f.pubkey)), ("npub", .string((try? PublicKey(hex: f.pubkey))?.npub ?? "")),
                                        ("contact", .bool(f.isContact)), ("name", f.profileName.map { .string($0) } ?? .null)]))
                })))
            } else {
                if followers.isEmpty { printLine("nobody's follow list names you on your relays.") }
                for f in followers {
                    let labels = [f.profileName.map { "(\(DisplayText.singleLine($0)))" }, f.isContact ? "contact" : nil].compactMap { $0 }
                    printLine(([(try? PublicKey(hex: f.pubkey))?.npub ?? f.pubkey] + labels).joined(separator: "  "))
                }
            }
        }
    }

    struct List: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "Contacts with their aliases and profile names (kind 0, fetched by sync).")
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let account = try CLIContext(global).account()
            let contacts = try account.reads.contacts()
            let names = try account.reads.profileNames()
            let marks = try account.nip05Marks(of: contacts.map(\.pubkey))
            if global.json {
                printLine(Output.json(.array(contacts.map { c in
                    .object(JSONObject([("pubkey", .string(c.pubkey)), ("npub", .string((try? PublicKey(hex: c.pubkey))?.npub ?? "")),
                                        ("alias", c.alias.map { .string($0) } ?? .null),
                                        ("name", names[c.pubkey].map { .string($0) } ?? .null),
                                        ("nip05", marks[c.pubkey].map { .string($0.nip05) } ?? .null),
                                        ("nip05_verified", marks[c.pubkey]?.verified.map { .bool($0) } ?? .null)]))
                })))
            } else {
                for c in contacts {
                    let labels = [c.alias, names[c.pubkey].map { "(\($0))" }, marks[c.pubkey]?.text].compactMap { $0.map(DisplayText.singleLine) }
                    printLine(([(try? PublicKey(hex: c.pubkey))?.npub ?? c.pubkey] + labels).joined(separator: "  "))
                }
            }
        }
    }
}
