import ArgumentParser
import LinkstrDomain
import LinkstrRelay
import NostrProtocol

struct RelaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "relays", abstract: "The stored relay list.",
                                                    subcommands: [List.self, Add.self, Remove.self, Enable.self, Disable.self, Reset.self, Test.self])

    struct List: LinkstrCommand {
        static let readsOnly = true
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let ctx = try CLIContext(global)
            let (_, store) = try ctx.account()
            let relays = try store.relays(now: ctx.now)
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
            let (_, store) = try ctx.account()
            switch try store.addRelay(url, now: ctx.now) {
            case .success(let stored): printLine(stored)
            case .failure(let e): throw CLIError(e.description)
            }
        }
    }

    struct Remove: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let (_, store) = try CLIContext(global).account()
            guard try store.removeRelay(url) else { throw CLIError("that relay is not in your list.") }
        }
    }

    struct Enable: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let (_, store) = try CLIContext(global).account()
            guard try store.setRelayEnabled(url, true) else { throw CLIError("that relay is not in your list.") }
        }
    }

    struct Disable: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument var url: String
        func execute() async throws {
            let (_, store) = try CLIContext(global).account()
            guard try store.setRelayEnabled(url, false) else { throw CLIError("that relay is not in your list.") }
        }
    }

    struct Test: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "Connect to each relay (or the one given), time one answered subscription, read NIP-11.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A relay URL; default: the enabled relays (or --relay).") var url: String?
        func execute() async throws {
            let ctx = try CLIContext(global)
            let urls: [String]
            if let url {
                guard let normalized = RelayURL.normalized(url) else { throw CLIError(RelayURL.invalidMessage) }
                urls = [normalized]
            } else {
                let (_, store) = try ctx.account()
                urls = try ctx.relayList(store).filter(\.enabled).map(\.url)
            }
            var failed = 0
            var results = [JSONValue]()
            for url in urls {
                do {
                    let result = try await RelayProbe.run(url)
                    if result.closedWith != nil { failed += 1 }
                    results.append(.object(JSONObject([("url", .string(url)), ("ok", .bool(result.closedWith == nil)),
                                                       ("connect_ms", .integer(Int64(result.connectMilliseconds.rounded()))),
                                                       ("answer_ms", .integer(Int64(result.answerMilliseconds.rounded()))),
                                                       ("summary", .string(result.summary))])))
                    if !global.json { printLine("\(url): \(result.summary)") }
                } catch {
                    failed += 1
                    results.append(.object(JSONObject([("url", .string(url)), ("ok", .bool(false)), ("summary", .string("\(error)"))])))
                    if !global.json { printLine("\(url): \(error)") }
                }
            }
            if global.json { printLine(Output.json(.array(results))) }
            if failed > 0 { throw CLIError("\(failed) of \(urls.count) relays did not answer.") }
        }
    }

    struct Reset: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Replace the list with the defaults, all enabled.")
        @OptionGroup var global: GlobalOptions
        func execute() async throws {
            let ctx = try CLIContext(global)
            let (_, store) = try ctx.account()
            try store.resetRelays(now: ctx.now)
        }
    }
}
