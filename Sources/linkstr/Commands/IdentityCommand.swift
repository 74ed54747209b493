import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

struct IdentityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "identity", abstract: "Create, import, list and switch identities.",
                                                    subcommands: [Create.self, Import.self, List.self, Show.self, Use.self, Name.self, ExportSecret.self,
                                                                  ChangePassphrase.self, Keyring.self])

    struct Create: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Create a new key; prints its npub.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "A profile name others will see (published on the next sync).") var name: String?
        @Option(name: .customLong("kdf-cost"), help: "scrypt cost exponent for the key file (NIP-49 log_n).") var kdfCost: UInt8 = NIP49.defaultLogN
        @Flag(name: .customLong("allow-weak"), help: "Take a passphrase that is short (under 8 characters) or common.") var allowWeak = false

        func execute() async throws {
            let ctx = try CLIContext(global)
            let (key, _) = try ctx.identities().create(name: name, passphrase: try ctx.newPassphrase(allowWeak: allowWeak), logN: kdfCost, now: ctx.now)
            printLine(global.json ? Output.json(.object(JSONObject([("npub", .string(key.publicKey.npub)), ("pubkey", .string(key.publicKey.hex))])))
                                  : key.publicKey.npub)
        }
    }

    struct Import: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Read an nsec, 64-hex or ncryptsec key from stdin; prints its npub.")
        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("kdf-cost"), help: "scrypt cost exponent for the key file (NIP-49 log_n).") var kdfCost: UInt8 = NIP49.defaultLogN
        @Flag(name: .customLong("allow-weak"), help: "Take a passphrase that is short (under 8 characters) or common.") var allowWeak = false

        func execute() async throws {
            let ctx = try CLIContext(global)
            var bytes: [UInt8]
            do throws(BoundedRead.Failure) { bytes = try BoundedRead.standardInput(limit: InputLimits.keyText, what: "the key on standard input") } catch {
                throw CLIError(error.description, .invalidInput)
            }
            var input = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
            _ = bytes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
            defer { input = String(repeating: " ", count: input.count) }
            guard !input.isEmpty else { throw CLIError("no key on standard input: pipe an nsec, a 64-hex key or an ncryptsec into linkstr identity import.", .invalidInput) }
            let ncryptsecPassword = input.lowercased().hasPrefix("ncryptsec1") ? try ctx.passphrase("passphrase of the ncryptsec: ") : nil
            if ncryptsecPassword == nil { _ = try SecretKey.parse(input) }  // a precise error before asking for a passphrase
            let key = try ctx.identities().importKey(input, passphrase: try ctx.newPassphrase(allowWeak: allowWeak), ncryptsecPassword: ncryptsecPassword, logN: kdfCost)
            Output.say(key.publicKey.npub, json: global.json, Output.key(key.publicKey.hex))
        }
    }

    struct List: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "Identities on this device; * marks the active one.")
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let ids = try CLIContext(global).vault.list()
            if global.json {
                printLine(Output.json(.array(ids.map { .object(JSONObject([("npub", .string($0.npub)), ("pubkey", .string($0.pubkey)), ("active", .bool($0.isActive))])) })))
            } else {
                for i in ids { printLine("\(i.isActive ? "*" : " ") \(i.npub)") }
            }
        }
    }

    struct Show: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "The active identity's npub and hex key.")
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            guard let pk = try CLIContext(global).vault.activePubkey(), let key = try? PublicKey(hex: pk) else { throw CLIError("no identity yet.", .notFound) }
            printLine(global.json ? Output.json(.object(JSONObject([("npub", .string(key.npub)), ("pubkey", .string(key.hex))]))) : "\(key.npub)\n\(key.hex)")
        }
    }

    struct Name: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Set the profile name others see (kind 0, published on the next sync).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The name; empty removes it.") var name: String
        @Option(help: "A NIP-05 name to publish with it (NAME@DOMAIN, whose nostr.json maps NAME to your key); empty removes it.")
        var nip05: String?
        func execute() async throws {
            if let nip05, !nip05.trimmingWhitespace().isEmpty, NIP05Relays.identifier(nip05) == nil {
                throw CLIError("not a NIP-05 name: it is NAME@DOMAIN, NAME of letters, digits, '-', '_' or '.'.", .invalidInput)
            }
            let account = try CLIContext(global).account()
            // Kept as pending until a relay accepted the kind 0, like the name given at creation.
            try account.setPendingProfileName(name.trimmingWhitespace(), nip05: nip05?.trimmingWhitespace())
            Output.say(name.trimmingWhitespace(), json: global.json, [("name", .string(name.trimmingWhitespace()))]
                       + (nip05.map { [("nip05", JSONValue.string($0.trimmingWhitespace()))] } ?? []))
        }
    }

    struct Use: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Make another stored identity active.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "npub or hex of a stored identity.") var key: String
        func execute() async throws {
            let pk = try PublicKey.parse(key)
            try CLIContext(global).vault.setActive(pk.hex)
            Output.say(pk.npub, json: global.json, Output.key(pk.hex))
        }
    }

    struct ExportSecret: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(commandName: "export-secret", abstract: "Print the active identity's nsec (needs --yes).")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Yes, print the secret key to standard output.") var yes = false
        func execute() async throws {
            guard yes else { throw CLIError("this prints your secret key; add --yes if you mean it.", .usage) }
            let ctx = try CLIContext(global)
            let key = try ctx.identity()
            Output.say(key.revealNsec(), json: global.json, [("nsec", .string(key.revealNsec()))] + Output.key(key.publicKey.hex))
            try ctx.vault.setBackedUp(key.publicKey.hex, true)
        }
    }
}

struct LogoutCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Forget the active identity on this device (data kept unless cleared).")
    @OptionGroup var global: GlobalOptions
    @Flag(name: .customLong("clear-local-data"), help: "Also delete this account's local data and cache.") var clear = false
    @Flag(name: .customLong("forget-unsaved-key"), help: "Log out even though the secret key was never backed up (it is lost).") var forgetUnsaved = false

    func execute() async throws {
        let ctx = try CLIContext(global)
        guard let active = ctx.vault.activePubkey() else { throw CLIError("no identity is active.", .notFound) }
        try Self.refuseUnsavedKey(ctx, active, forgetting: forgetUnsaved)
        let identities = try ctx.identities()
        if let problem = clear ? try ctx.account().forget(with: identities, clearData: true) : try identities.forget(active, store: nil, clearData: false) {
            FileHandle.standardError.write(Data("linkstr: the keyring item could not be removed: \(problem)\n".utf8))
        }
        Output.say(clear ? "logged out; local data cleared." : "logged out; local data kept.", json: global.json,
                   [("logged_out", .bool(true)), ("local_data", .string(clear ? "cleared" : "kept"))])
    }

    /// A key made here and never shown or exported exists only in its file: logging out loses it.
    static func refuseUnsavedKey(_ ctx: CLIContext, _ pubkey: Pubkey, forgetting: Bool) throws {
        guard !forgetting, !ctx.vault.isBackedUp(pubkey) else { return }
        throw CLIError("this identity's secret key was never backed up, and this device holds its only copy: logging out would lose the account for good. "
                       + "Save it first (`linkstr identity export-secret --yes` or `linkstr backup export FILE`), or add --forget-unsaved-key.")
    }
}

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "account", abstract: "Account-wide actions.", subcommands: [Delete.self])

    struct Delete: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Publish an empty follow list and a NIP-62 request to vanish, then wipe the account here.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Yes, delete the account.") var yes = false
        @Flag(name: .customLong("forget-unsaved-key"), help: "Delete even though the secret key was never backed up.") var forgetUnsaved = false

        func execute() async throws {
            guard yes else { throw CLIError("this deletes your account from relays and this device; add --yes if you mean it.", .usage) }
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            try LogoutCommand.refuseUnsavedKey(ctx, account.me, forgetting: forgetUnsaved)
            let relays = account.relays.enabledURLs
            try await ctx.withActions { try await $0.announceDeletion(relays: relays, now: ctx.now) }
            try account.forget(with: ctx.identities(), clearData: true)
            Output.say("account deleted.", json: global.json, [("deleted", .bool(true))])
        }
    }
}
