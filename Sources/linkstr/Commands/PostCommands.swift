import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// The commands on posts: share one, list a session's, react, delete one of ours, mark read.

struct PostCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "post", abstract: "Share a link; prints the post id once relays accepted it.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Session id, or its name (the start of it is enough when only one session's name starts so).",
              completion: Completion.sessionIDs) var session: String
    @Argument var url: String
    @Option(help: "A note to go with the link.") var note: String?
    @Option(name: .customLong("note-file"), help: "Read the note from this file (`-`: standard input), for notes too long for one argument.")
    var noteFile: String?
    @Flag(help: "Apply it here and queue it; return at once (`linkstr queue list`, sent by the next sync or the app).") var queue = false

    func execute() async throws {
        let ctx = try CLIContext(global)
        let text = try NoteInput.read(note: note, file: noteFile)
        let account = try ctx.account()
        let session = try ctx.sessionID(self.session, in: account)
        if queue {
            let q = try await ctx.withActions { try await $0.queuePost(session: session, url: url, note: text, now: ctx.now, drain: false) }
            return QueuedOutput.print(q, json: global.json, shown: q.postID)
        }
        // Each member's delivery to the relays they read is known once it ended (each relay has its deadline):
        // finishing the account waits for it.
        let sent = try await ctx.withActions { try await $0.sendPost(session: session, url: url, note: text, now: ctx.now) }
        let deliveries = try account.deliveryRows(of: sent.postID)
        if global.json, let view = try account.reads.postView(sent.postID) {
            printLine(Output.json(Output.post(view, deliveries: deliveries)))
        } else {
            printLine(sent.postID)
        }
        // Said per member, never as delivered when no relay they read took it.
        if !global.json {
            let naming = try account.naming()
            for row in deliveries where !row.outcome.isDelivered {
                printError("warning: \(DisplayText.singleLine(naming.name(row.member))): \(DisplayText.singleLine(row.outcome.words))")
            }
        }
    }
}

struct PostsCommand: LinkstrCommand {
    static let readsOnly = true
    static let configuration = CommandConfiguration(
        commandName: "posts", abstract: "A session's posts, newest first.",
        discussion: "A post dated more than 15 minutes past its arrival (its sender's clock far ahead) sorts by its arrival; under --json its `dated_ahead` is the date it claimed (null for every other post).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Session id.", completion: Completion.sessionIDs) var session: String
    @Option(parsing: .unconditional, help: "At most this many.", transform: Count.parse) var limit = 200
    @Flag(help: "The posts held for want of membership instead (dated before their sender joined, …), oldest first, with why.")
    var held = false

    func execute() async throws {
        let account = try CLIContext(global).account()
        guard try account.reads.sessionSummary(session) != nil else { throw SendRuleError.unknownSession }
        let holding = try account.reads.heldPosts(in: session)
        if held { return try Self.printHeld(holding, account, json: global.json) }
        try Self.print(try account.reads.postPage(in: session, limit: limit), account, json: global.json)
        // Said on stderr, so a script reading the JSON array still gets only posts.
        if let summary = HeldReason.summary(holding.map(\.reason)) { printError("\(summary) (`linkstr posts \(session) --held` to see them).") }
    }

    /// Held posts: as `posts` prints posts, each with `held_reason` (JSON) or its reason on its first line.
    static func printHeld(_ held: [HeldPost], _ account: AccountSession, json: Bool) throws {
        let views = held.map { PostView(post: $0.post, unread: false, reactions: []) }
        if json {
            let values = zip(views, held).map { view, h -> JSONValue in
                guard case .object(var o) = Output.post(view) else { return .null }
                o.members.append((key: "held_reason", value: .string(h.reason.rawValue)))
                return .object(o)
            }
            printLine(Output.json(.array(values)))
            return
        }
        let naming = try account.naming()
        for (view, h) in zip(views, held) { printLine("held: \(h.reason.rawValue)\n" + Output.postLines(view) { naming.name($0) }) }
    }

    /// Posts as `posts` and `search` print them: JSON, or a few lines each with names as the app shows them.
    static func print(_ posts: [PostView], _ account: AccountSession, json: Bool) throws {
        // Titles already fetched (by the app or `linkstr preview`); nothing is fetched here.
        let titles = try account.reads.linkTitles(for: posts.map(\.post.url))
        if json {
            let me = account.me
            let values = try posts.map { Output.post($0, title: titles[$0.post.url], deliveries: $0.post.author == me ? try account.deliveryRows(of: $0.id) : nil) }
            printLine(Output.json(.array(values)))
            return
        }
        let naming = try account.naming()
        posts.forEach { printLine(Output.postLines($0) { naming.name($0) }) }
    }
}

struct ReactCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "react", abstract: "React to a post (or take it back with --off).")
    @OptionGroup var global: GlobalOptions
    @Argument var post: String
    @Argument var emoji: String
    @Flag var off = false
    @Flag(help: "Apply it here and queue it; return at once (`linkstr queue list`, sent by the next sync or the app).") var queue = false

    func execute() async throws {
        let ctx = try CLIContext(global)
        let account = try ctx.account()
        if queue {
            let r = try await ctx.withActions { try await $0.queueReaction(post: post, emoji: emoji, active: !off, now: ctx.now, drain: false) }
            guard let q = r.queued else { return printLine(global.json ? Output.json(.object(JSONObject([("post_id", .string(post)), ("changed", .bool(false))]))) : (off ? "no such reaction to take back." : "already reacted.")) }
            return QueuedOutput.print(q, json: global.json, shown: nil)
        }
        let result = try await ctx.withActions { try await $0.react(post: post, emoji: emoji, active: !off, now: ctx.now) }
        if global.json {
            printLine(Output.json(.object(JSONObject([("post_id", .string(post)), ("emoji", .string(emoji)), ("active", .bool(!off)),
                                                      ("changed", .bool(result.change != .unchanged))]))))
        } else if result.change == .unchanged { printLine(off ? "no such reaction to take back." : "already reacted.") }
    }
}

struct DeleteCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one of your posts for everyone.")
    @OptionGroup var global: GlobalOptions
    @Argument var post: String
    @Flag(help: "Apply it here and queue it; return at once (`linkstr queue list`, sent by the next sync or the app).") var queue = false

    func execute() async throws {
        let ctx = try CLIContext(global)
        let account = try ctx.account()
        if queue {
            let q = try await ctx.withActions { try await $0.queueDeletePost(post, now: ctx.now, drain: false) }
            return QueuedOutput.print(q, json: global.json, shown: nil)
        }
        let outcome = try await ctx.withActions { try await $0.deletePost(post, now: ctx.now) }
        if !outcome.warnings.isEmpty { printError(outcome.summary) }
        if global.json {
            printLine(Output.json(.object(JSONObject([("id", .string(post)), ("deleted", .bool(true)),
                                                      ("warnings", .array(outcome.warnings.map { .string($0) }))]))))
        }
    }
}

struct ReadCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Mark a post, or every post of a session, read.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A post id or a session id.") var id: String
    @Flag(help: "Accepted for scripts that pass --queue to every write: `read` never waits for relays (the read state goes out with the next command that connects, or the app).")
    var queue = false

    func execute() async throws {
        let ctx = try CLIContext(global)
        let account = try ctx.account()
        if try account.reads.sessionSummary(id) != nil { try account.markSessionRead(id, now: ctx.now) } else if try account.reads.postView(id) != nil {
            try account.markRead(postID: id, now: ctx.now)
        } else { throw CLIError("no post or session with that id.", .notFound) }
    }
}
