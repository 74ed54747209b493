import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrConfig
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// The send queue: what waits to be sent, trying it again, taking it out.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "What waits to be sent: list it, try it again, or take an item out.",
        discussion: "Write commands given --queue (and everything the app sends) are applied here at once and queued as the exact events that will go; `linkstr sync` and the app send them when a relay answers, oldest first and in order per session. An item refused for good (invalid:, blocked:, pow:) is kept as failed, with the relay's words, until retried or cancelled. Items older than `queue_hold_after_days` (30) wait for `queue retry`. The queue holds at most \(SendQueuePolicy.maxItems) items or \(SendQueuePolicy.maxBytes / 1024 / 1024) MB.",
        subcommands: [List.self, Retry.self, Cancel.self])

    struct List: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "Every queued item, oldest first: id, session, kind, state, attempts, last reason, age.")
        @OptionGroup var global: GlobalOptions

        func execute() async throws {
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            let entries = try account.reads.sendQueueEntries()
            let hold = ctx.config.queueHoldAfterDays
            if global.json {
                printLine(Output.json(.array(entries.map { Self.json($0, now: ctx.now, hold: hold) })))
                return
            }
            if entries.isEmpty { printLine("nothing waits to be sent."); return }
            for e in entries {
                let state = Self.state(e, now: ctx.now, hold: hold)
                let reason = e.lastReason.map { " · " + DisplayText.singleLine($0) } ?? ""
                let about = e.item.isSession ? e.send.sessionID : e.send.contact.map { (try? PublicKey(hex: $0.pubkey))?.npub ?? $0.pubkey } ?? "-"
                printLine("\(e.item.id)\t\(about)\t\(e.send.action.rawValue)\t\(state)\t"
                          + "\(e.item.attempts) attempt\(e.item.attempts == 1 ? "" : "s")\t\(Self.age(ctx.now - e.item.createdAt))\(reason)")
            }
        }

        static func state(_ e: SendQueueEntry, now: Int64, hold: Int) -> String {
            SendQueuePolicy.isHeld(e.item, now: now, holdAfterDays: hold) ? "held" : e.item.state.rawValue
        }

        static func json(_ e: SendQueueEntry, now: Int64, hold: Int) -> JSONValue {
            .object(JSONObject([
                ("id", .integer(e.item.id)), ("session_id", e.item.isSession ? .string(e.send.sessionID) : .null),
                ("contact", e.send.contact.map { .string($0.pubkey) } ?? .null),
                ("post_id", e.send.postID.map { .string($0) } ?? .null), ("kind", .string(e.send.action.rawValue)),
                ("state", .string(state(e, now: now, hold: hold))), ("attempts", .integer(Int64(e.item.attempts))),
                ("last_reason", e.lastReason.map { .string(DisplayText.singleLine($0)) } ?? .null),
                ("created_at", .integer(e.item.createdAt)), ("age_seconds", .integer(max(0, now - e.item.createdAt))),
                ("events", .array(e.send.events.map { .string($0.id.hex) })),
            ]))
        }

        static func age(_ seconds: Int64) -> String {
            let s = max(0, seconds)
            if s < 60 { return "\(s)s" }
            if s < 3600 { return "\(s / 60)m" }
            if s < 86_400 { return "\(s / 3600)h" }
            return "\(s / 86_400)d"
        }
    }

    struct Retry: LinkstrCommand {
        static let configuration = CommandConfiguration(
            abstract: "Try an item (or every one) again at the next sync, old and failed ones included; with --now, send now.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The item's id (see `queue list`); every item when left out.") var id: Int64?
        @Flag(help: "Connect and send now (as `linkstr sync` would), instead of leaving it to the next sync or the app.") var now = false

        func execute() async throws {
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            let n = try account.actions(requests: ctx.requestPolicy).retryQueued(id)
            var sent = 0
            if now && n > 0 { sent = try await ctx.withAccount { await $0.drainSendQueue() } }
            let left = try account.reads.sendQueue()
            if global.json {
                printLine(Output.json(.object(JSONObject([("retried", .integer(Int64(n))), ("queue_sent", .integer(Int64(sent))),
                                                          ("queue_waiting", .integer(Int64(left.filter { $0.state == .queued }.count))),
                                                          ("queue_failed", .integer(Int64(left.filter { $0.state == .failed }.count)))]))))
            } else if now {
                printLine("sent \(sent) of \(n); \(left.count) left in the queue.")
            } else {
                printLine("\(n) item\(n == 1 ? "" : "s") will be tried at the next `linkstr sync` (or now in the app).")
            }
        }
    }

    struct Cancel: LinkstrCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take an item out of the queue: it is never sent. A queued post disappears here too.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The item's id (see `queue list`).") var id: Int64

        func execute() async throws {
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            let send = try account.actions(requests: ctx.requestPolicy).cancelQueued(id)
            let words = send.action == .post
                ? "cancelled: the post will not be sent, and is gone from this device."
                : "cancelled: the \(send.action.words) will not be sent; it was applied on this device and stays here only."
            if global.json {
                printLine(Output.json(.object(JSONObject([("id", .integer(id)), ("kind", .string(send.action.rawValue)), ("state", .string("cancelled")),
                                                          ("post_id", send.postID.map { .string($0) } ?? .null)]))))
            } else {
                printLine(words)
            }
        }
    }
}

/// What a write command with --queue prints: the id it made (as without it), and the item.
enum QueuedOutput {
    static func print(_ q: AccountActions.Queued, json: Bool, shown: String?) {
        if json {
            var fields: [(key: String, value: JSONValue)] = [("id", .integer(q.item)), ("state", .string("queued"))]
            if !q.sessionID.isEmpty { fields.append(("session_id", .string(q.sessionID))) }
            if let post = q.postID { fields.append(("post_id", .string(post))) }
            printLine(Output.json(.object(JSONObject(fields))))
            return
        }
        if let shown { printLine(shown) }
        printError("queued (item \(q.item)): it goes with the next `linkstr sync` or the app; `linkstr queue list` shows it.")
    }
}
