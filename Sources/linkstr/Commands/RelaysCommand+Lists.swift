import ArgumentParser
import LinkstrClient
import LinkstrDomain
import NostrProtocol

/// `linkstr relays block|unblock|blocked|inbox`: our kind 10006 and kind 10050.
extension RelaysCommand {
    struct Block: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Never dial a relay again (published as your NIP-51 kind 10006).")
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let ctx = try CLIContext(global)
            let ours = try ctx.account().storedRelays().entries.map(\.url)
            let edit = try await ctx.withActions { try await $0.blockRelay(url, ours: ours, now: ctx.now) }
            RelaysCommand.report(edit, verb: "blocked", json: global.json)
        }
    }

    struct Unblock: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Take a relay off your blocked relays.")
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let ctx = try CLIContext(global)
            let edit = try await ctx.withActions { try await $0.unblockRelay(url, now: ctx.now) }
            RelaysCommand.report(edit, verb: "unblocked", json: global.json)
        }
    }

    struct Blocked: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "The relays you blocked.")
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let ctx = try CLIContext(global)
            let record = try ctx.account().reads.blockedRelayRecord()
            let relays = record?.relays ?? []
            if global.json {
                printLine(Output.json(.object(JSONObject([("relays", .array(relays.map { .string($0) })), ("pending", .bool(record?.pending ?? false))]))))
            } else {
                for relay in relays { printLine(relay) }
                if record?.pending == true { printError("warning: not yet published: it goes to your relays at the next chance.") }
            }
        }
    }

    struct Inbox: LinkstrCommand {
        static let configuration = CommandConfiguration(
            abstract: "Where you read gift wraps (your kind 10050): show it, or choose relays.",
            discussion: "Without relays it shows the list. With relays, they become your inbox (read as well as your other relays); --reset goes back to the relays you use.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Relay URLs to read your gift wraps from.") var urls: [String] = []
        @Flag(help: "Use the relays you use as your inbox again.") var reset = false
        func execute() async throws {
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            let ours = try account.storedRelays().enabledURLs
            if !urls.isEmpty || reset {
                guard urls.isEmpty || !reset else { throw CLIError("give relays or --reset, not both.", .usage) }
                let edit = try await ctx.withActions { try await $0.setInboxRelays(reset ? nil : urls) }
                if let note = edit.note, !global.json { printError("warning: " + note) }
            }
            let (relays, chosen) = try account.actions(requests: ctx.requestPolicy).inboxRelays(ours: ours)
            if global.json {
                printLine(Output.json(.object(JSONObject([("relays", .array(relays.map { .string($0) })), ("chosen", .bool(chosen))]))))
            } else {
                for relay in relays { printLine(relay) }
                if !chosen { printError("the relays you use; choose others with `linkstr relays inbox URL…`.") }
            }
        }
    }

    static func report(_ edit: AccountActions.ListEdit, verb: String, json: Bool) {
        if json {
            var fields: [(String, JSONValue)] = [("url", .string(edit.relay ?? "")), ("published", .bool(edit.published))]
            if let note = edit.note { fields.append(("note", .string(note))) }
            printLine(Output.json(.object(JSONObject(fields))))
        } else {
            printLine("\(verb) \(edit.relay ?? "")")
            if let note = edit.note { printError("warning: " + note) }
        }
    }
}
