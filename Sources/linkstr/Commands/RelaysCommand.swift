import ArgumentParser
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import NostrProtocol

struct RelaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "relays", abstract: "The stored relay list.",
                                                    subcommands: [List.self, Add.self, Remove.self, Enable.self, Disable.self, Reset.self, Test.self,
                                                                  Block.self, Unblock.self, Blocked.self, Inbox.self])

    struct List: LinkstrCommand {
        static let readsOnly = true
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let ctx = try CLIContext(global)
            let relays = try ctx.account().storedRelays().entries
            if global.json {
                printLine(Output.json(.array(relays.map { .object(JSONObject([("url", .string($0.url)), ("enabled", .bool($0.enabled))])) })))
            } else {
                for r in relays { printLine("\(r.enabled ? "on " : "off") \(r.url)") }
            }
        }
    }

    struct Add: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let ctx = try CLIContext(global)
            var list = try ctx.account().storedRelays()
            let added = try list.add(url, now: ctx.now)
            Output.say(added, json: global.json, [("url", .string(added)), ("enabled", .bool(true))])
        }
    }

    struct Remove: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let ctx = try CLIContext(global)
            var list = try ctx.account().storedRelays()
            try list.remove(url)
        }
    }

    struct Enable: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let ctx = try CLIContext(global)
            var list = try ctx.account().storedRelays()
            try list.setEnabled(url, true)
        }
    }

    struct Disable: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let ctx = try CLIContext(global)
            var list = try ctx.account().storedRelays()
            try list.setEnabled(url, false)
        }
    }

    struct Test: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "Connect to each relay (or the one given), time one answered subscription, read NIP-11.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A relay URL; default: the enabled relays (or --relay).") var url: String?
        func execute() async throws {
            let ctx = try CLIContext(global)
            // A relay given here is tested without opening the account.
            let probes = try await (url != nil ? RelayList(store: nil, overrides: [], now: ctx.now) : ctx.account().relays).test(url)
            var results = [JSONValue]()
            for p in probes {
                var fields: [(String, JSONValue)] = [("url", .string(p.url)), ("ok", .bool(p.ok))]
                if let ms = p.connectMilliseconds { fields.append(("connect_ms", .integer(Int64(ms.rounded())))) }
                if let ms = p.answerMilliseconds { fields.append(("answer_ms", .integer(Int64(ms.rounded())))) }
                fields.append(("summary", .string(p.summary)))
                if let problem = p.informationProblem { fields.append(("nip11_error", .string(problem))) }
                results.append(.object(JSONObject(fields)))
                if !global.json { printLine("\(p.url): \(p.summary)") }
            }
            if global.json { printLine(Output.json(.array(results))) }
            let failed = probes.filter { !$0.ok }.count
            if failed > 0 { throw CLIError("\(failed) of \(probes.count) relays did not answer.", .relaysUnavailable) }
        }
    }

    struct Reset: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Replace the list with the defaults, all enabled.")
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let ctx = try CLIContext(global)
            var list = try ctx.account().storedRelays()
            try list.reset(now: ctx.now)
        }
    }
}
