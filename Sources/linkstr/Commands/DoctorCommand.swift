import ArgumentParser
import LinkstrClient
import LinkstrDomain
import LinkstrTUI
import NostrProtocol

/// `linkstr doctor [SESSION_ID]`: can the people of a session (or everyone we know) be reached where
/// they read, and what to do if not.
struct DoctorCommand: LinkstrCommand {
    static let besideTheApp = true
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check delivery: your inbox lists, and each member's inbox relays, with what to do.",
        discussion: "Looks up each member's kind 10050 and 10002 (your relays, the indexer relays, the relays they were added with), "
            + "connects to each of their inbox relays (NIP-11, AUTH), and says where the last post went.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A session id; default: everyone in your sessions and contacts.") var sessionID: String?

    func execute() async throws {
        let ctx = try CLIContext(global)
        let account = try ctx.account()
        let report = try await ctx.withActions { try await DeliveryDoctor(actions: $0).run(session: sessionID) }
        // What waits to be sent: said when it waited over an hour or was refused for good.
        let queue = try account.reads.sendQueue()
        if global.json {
            guard case .object(var fields) = Self.json(report) else { return }
            let long = queue.filter { $0.state == .queued && ctx.now - $0.createdAt > SendQueuePolicy.longWait }
            fields.members.append(("queue", .object(JSONObject([
                ("waiting", .integer(Int64(queue.filter { $0.state == .queued }.count))),
                ("waiting_over_an_hour", .integer(Int64(long.count))),
                ("failed", .integer(Int64(queue.filter { $0.state == .failed }.count))),
                ("oldest_seconds", queue.map(\.createdAt).min().map { .integer(max(0, ctx.now - $0)) } ?? .null),
            ]))))
            printLine(Output.json(.object(fields)))
        } else {
            for line in report.lines(width: 80, measure: DisplayWidth.of) { printLine(line) }
            if let words = SendQueuePolicy.doctorWords(queue, now: ctx.now) { printLine(words) }
        }
    }

    static func json(_ r: DeliveryDoctor.Report) -> JSONValue {
        let o = r.ours
        let ours = JSONObject([
            ("relays", strings(o.relays)), ("inbox", strings(o.inbox)), ("inbox_chosen", .bool(o.inboxChosen)),
            ("inbox_published", .bool(o.inboxPublished)), ("relay_list_published", .bool(o.relayListPublished)), ("blocked", strings(o.blocked)),
            ("indexers", .array(o.indexers.map { i in
                .object(JSONObject([("url", .string(i.url)), ("has_inbox", .bool(i.hasInbox)), ("has_relay_list", .bool(i.hasRelayList)),
                                    ("error", i.error.map(JSONValue.string) ?? .null)]))
            })),
        ])
        let members = r.members.map { m -> JSONValue in
            var fields = Output.key(m.pubkey)
            fields += [("name", m.name.map(JSONValue.string) ?? .null), ("source", .string(m.source)),
                       ("found_on", m.foundOn.map(JSONValue.string) ?? .null), ("fetched_at", m.fetchedAt.map(JSONValue.integer) ?? .null),
                       ("relays", .array(m.relays.map(relay))), ("overlap", strings(m.overlap)),
                       ("last_delivery", m.lastDelivery.map { delivery($0, at: m.lastDeliveryAt) } ?? .null), ("advice", .string(m.advice))]
            return .object(JSONObject(fields))
        }
        return .object(JSONObject([("session", r.sessionID.map(JSONValue.string) ?? .null), ("ours", .object(ours)), ("members", .array(members))]))
    }

    static func relay(_ c: DeliveryDoctor.RelayCheck) -> JSONValue {
        .object(JSONObject([
            ("url", .string(c.url)), ("answered", .bool(c.answered)), ("blocked", .bool(c.blocked)), ("error", c.error.map(JSONValue.string) ?? .null),
            ("read_refused", c.readRefused.map(JSONValue.string) ?? .null), ("auth_required", .bool(c.authRequired)),
            ("payment_required", .bool(c.paymentRequired)), ("restricted_writes", .bool(c.restrictedWrites)),
            ("max_message_length", c.maxMessageLength.map { .integer(Int64($0)) } ?? .null),
        ]))
    }

    /// A member's delivery as `--json` says it: `state` (pending, inbox, shared_only, not_delivered), the
    /// relay or the reason.
    static func delivery(_ d: MemberDelivery, at: Int64?) -> JSONValue {
        var fields: [(String, JSONValue)] = [("state", .string(d.state))]
        switch d {
        case .inbox(let relay): fields.append(("relay", .string(relay)))
        case .notDelivered(let why): fields.append(("why", .string(why)))
        case .pending, .sharedOnly: break
        }
        if let at { fields.append(("at", .integer(at))) }
        return .object(JSONObject(fields))
    }

    static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
