import ArgumentParser
import LinkstrDomain
import NostrProtocol

struct RelaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "relays", abstract: "The stored relay list.",
                                                    subcommands: [List.self, Add.self, Remove.self, Enable.self, Disable.self, Reset.self])

    struct List: LinkstrCommand {
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
