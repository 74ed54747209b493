import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrConfig
import LinkstrDomain
import LinkstrRelay
import LinkstrSync
import NostrProtocol
import Synchronization

struct SyncCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "sync",
                                                    abstract: "Connect, backfill every relay to EOSE, ingest, and exit (or keep following).")
    @OptionGroup var global: GlobalOptions
    @Option(parsing: .unconditional, help: "Give up waiting after this many seconds (0 < seconds ≤ 86400).",
            transform: Seconds.parse) var timeout: Double = 30
    @Flag(help: ArgumentHelp("Keep running and print what arrives (JSON lines with --json).",
                             discussion: "With --json, one JSON object a line (NDJSON), each written at once: `ingested` (the sessions a batch touched), then `post`, `reaction`, `post_deleted`, `session` (`change`: created, renamed, members, deleted), `request`, `relay` (a status change) and `sent` (a queued send that went), each with `type`, `at` (ISO 8601) and the fields of the matching --json output; the run's summary is the last line. SIGINT or SIGTERM ends the follow early (exit 0, after the summary); a reader that goes (`| head -1`) ends it too, quietly."))
    var follow = false
    @Flag(name: .customLong("no-hooks"), help: "Run no hooks (`[hooks]` in config.toml) while following.") var noHooks = false
    @Flag(name: .customLong("trust-hooks"), help: "Allow the hooks config.toml names now (once per change to them; the app asks the same).")
    var trustHooks = false

    func execute() async throws {
        let ctx = try CLIContext(global)
        let session = try ctx.account()
        let updates = session.updates
        let requests = SessionRequestPolicy(holdsStrangers: ctx.config.sessionRequests)
        // Following ends at its deadline, at SIGINT/SIGTERM, or when the reader of the lines goes.
        let (stop, stopper) = AsyncStream<Void>.makeStream()
        let out = LineWriter()
        let signals = follow ? FollowSignals(stopper) : nil
        let watcher = follow && global.json ? out.watch(stopper) : nil
        defer { signals?.cancel(); watcher?.cancel(); stopper.finish() }
        let hooks = follow ? try Self.hooks(ctx.config.hooks, session: session, off: noHooks, trust: trustHooks) : nil
        let events = follow ? try AccountEvents(session: session, requests: requests) : nil
        let me = session.me, json = global.json
        let printer = Task {
            var stream = events
            // Batches before the history's end are old news when it is being restored: no hook runs for them.
            var restoring = false
            for await update in updates where follow {
                if case .restoringHistory = update { restoring = true }
                if case .backfillComplete = update { restoring = false }
                if var events = stream {
                    var lines = [JSONValue]()
                    do { lines = try events.lines(update) } catch { printError("could not read what arrived: \(ClientError(error))") }
                    stream = events
                    if let hooks, !lines.isEmpty { await hooks.handle(lines, me: me, restoringHistory: restoring) }
                    if json {
                        for line in lines where !out.write(Output.json(line)) { stopper.yield(()); return }
                        continue
                    }
                }
                switch update {
                case .ingested(let sessions, let notes):
                    if global.json {
                        printLine(Output.json(.object(JSONObject([("type", .string("ingested")), ("sessions", .array(sessions.sorted().map { .string($0) })),
                                                                  ("notifications", .integer(Int64(notes.count)))]))))
                    } else {
                        // The app's rule and words; a failed read only costs this batch's lines.
                        do { try session.headlines(notes, requests: requests).forEach { printLine($0) } } catch {
                            printError("could not read who that was: \(ClientError(error))")
                        }
                    }
                case .relay(let r):
                    if !global.json { printLine("relay \(r.url): \(r.status.rawValue)\(r.lastError.map { " (\(DisplayText.singleLine($0)))" } ?? "")") }
                default: break
                }
            }
        }
        // The same sync as the app's (AccountSession), run once to the deadline.
        let run = try await session.runSync(timeout: .milliseconds(Int(timeout * 1000)), follow: follow ? .milliseconds(Int(timeout * 1000)) : nil,
                                            until: follow ? stop : nil)
        let (relays, history, stats, backfilled) = (run.relays, run.history, run.stats, run.backfilled)
        printer.cancel()
        await hooks?.finish()
        // The reader went (`| head -1`): nothing more to say to it, and nothing failed.
        if out.readerGone { return }
        // Posts the membership gate holds in listed sessions, kept and shown, never dropped.
        let listed = Set(try session.reads.listedSessionIDs())
        let held = try session.reads.heldPostCounts().filter { listed.contains($0.key) }
        // What could not be stored (a full disk) will be read again next time: this run is not complete.
        let complete = run.complete
        if global.json {
            let relayObjects: [JSONValue] = relays.map { r in
                let fields: [(key: String, value: JSONValue)] = [
                    ("url", .string(r.url)), ("status", .string(r.status.rawValue)), ("error", r.lastError.map { .string($0) } ?? .null),
                    ("auths_sent", .integer(Int64(r.stats.authsSent))), ("auth_loops", .integer(Int64(r.stats.authLoops))),
                    ("history", .string(Self.words(history[r.url]))),
                ]
                return .object(JSONObject(fields))
            }
            printLine(Output.json(.object(JSONObject([
                ("complete", .bool(complete)), ("received", .integer(Int64(stats.wrapsReceived))),
                ("already_processed", .integer(Int64(stats.wrapsAlreadyProcessed))), ("decrypted", .integer(Int64(stats.decryptions))),
                ("applied", .integer(Int64(stats.applied))), ("pending", .integer(Int64(stats.pending))), ("ignored", .integer(Int64(stats.ignored))),
                ("duplicates", .integer(Int64(stats.duplicates))), ("invalid", .integer(Int64(stats.invalidWraps + stats.rejectedPayloads))),
                ("not_linkstr", .integer(Int64(stats.notLinkstr))), ("pages", .integer(Int64(stats.backfillPages))),
                ("reconciled", .integer(Int64(stats.reconciledRelays))), ("reconcile_bytes", .integer(Int64(stats.reconcileBytes))),
                ("preferences_reconciled", .integer(Int64(stats.preferencesReconciled))),
                ("preferences_reconcile_bytes", .integer(Int64(stats.preferencesReconcileBytes))),
                ("profiles_reconciled", .integer(Int64(stats.profilesReconciled))),
                ("profiles_reconcile_bytes", .integer(Int64(stats.profilesReconcileBytes))),
                ("relays", .array(relayObjects)),
                ("store_error", stats.lastStoreError.map { .string($0) } ?? .null),
                ("held", .integer(Int64(held.values.reduce(0, +)))),
                ("unfinished", .array(run.unfinished.map { .string($0) })),
                ("queue_sent", .integer(Int64(run.queueSent))), ("queue_waiting", .integer(Int64(run.queueWaiting))),
                ("queue_failed", .integer(Int64(run.queueFailed))),
            ]))))
        } else {
            printLine("received \(stats.wrapsReceived) gift wraps (\(stats.wrapsAlreadyProcessed) already known), opened \(stats.decryptions), applied \(stats.applied), waiting \(stats.pending)")
            if run.queueSent > 0 { printLine("sent \(run.queueSent) queued item\(run.queueSent == 1 ? "" : "s") that waited") }
            if run.queueFailed > 0 { printLine("\(run.queueFailed) queued item\(run.queueFailed == 1 ? "" : "s") refused for good (`linkstr queue list`)") }
            for (id, count) in held.sorted(by: { $0.key < $1.key }) {
                printLine("\(count) post\(count == 1 ? "" : "s") held in \(id): their senders were not members at their dates (`linkstr posts \(id) --held`)")
            }
        }
        for work in run.unfinished { printError(work + ".") }
        // Complete on some relay; the others are named (scripts read stdout, people stderr).
        let behind = relays.filter { history[$0.url] != .finished && $0.status != .disabled }
        if complete && !behind.isEmpty {
            printError("history complete, though not on every relay: " + behind.map { "\($0.url): \(Self.words(history[$0.url]))" }.joined(separator: "; "))
        }
        if let why = stats.lastStoreError {
            throw CLIError("some messages could not be stored: \(why) They are read again on the next sync.", .storage)
        }
        guard complete else {
            let errors = relays.compactMap { r -> String? in
                if let outcome = history[r.url], outcome != .finished { return "\(r.url): history \(Self.words(outcome))" }
                return r.lastError.map { "\(r.url): \($0)" }
            }
            if backfilled {
                throw CLIError("the history is incomplete on every relay (" + errors.joined(separator: "; ") + ").", .relaysUnavailable)
            }
            throw CLIError("sync did not finish within \(Int(timeout)) s" + (errors.isEmpty ? "." : " (" + errors.joined(separator: "; ") + ")"), .relaysUnavailable)
        }
    }
}

extension SyncCommand {
    /// A relay's history in words, for `--json` (`finished`, `incomplete: …`, `unfinished`) and errors.
    static func words(_ outcome: HistoryPager.Outcome?) -> String { outcome?.words ?? "unfinished" }
}

extension SyncCommand {
    /// The hooks to run while following: none when off, none set, or not yet allowed on this account (a
    /// config edited by someone else must not silently gain a command: said once, on stderr).
    static func hooks(_ settings: HookSettings, session: AccountSession, off: Bool, trust: Bool) throws -> HookRunner? {
        guard !off, settings.enabled, !settings.isEmpty else { return nil }
        if trust { try session.trustHooks(settings) }
        guard try session.hooksTrusted(settings) else {
            printError("config.toml names hooks not yet allowed on this account, so they do not run: say yes in the app, or run `linkstr sync --follow --trust-hooks` once.")
            return nil
        }
        return HookRunner(settings: settings) { printError($0) }
    }
}

