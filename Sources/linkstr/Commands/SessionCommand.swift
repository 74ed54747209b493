import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "session", abstract: "Create and manage sessions.",
                                                    subcommands: [Create.self, Members.self, Rename.self, Delete.self, List.self, Archive.self, Unarchive.self, Accept.self, Decline.self])

    struct Create: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Create a session; prints its id once relays accepted it.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String
        @Option(name: .customLong("member"), help: "A member's npub or hex (repeatable).") var members: [String] = []
        @Flag(help: "Apply it here and queue it; return at once (`linkstr queue list`, sent by the next sync or the app).") var queue = false

        func execute() async throws {
            let ctx = try CLIContext(global)
            let (me, store) = try ctx.account()
            let members = try members.map(PubkeyNormalizer.cliKey)
            if queue {
                let q = try await ctx.withActions(me, store) { try await $0.queueCreateSession(name: name, members: members, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: q.sessionID)
            }
            let id = try await ctx.withActions(me, store) { try await $0.createSession(name: name, members: members, now: ctx.now, random: SystemRandom()) }
            if global.json, let s = try store.sessionSummary(id) { printLine(Output.json(Output.session(s, held: try store.heldPostCounts()))) } else { printLine(id) }
        }
    }

    struct Members: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Replace a session's members (creator only).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Session id.", completion: Completion.sessionIDs) var id: String
        @Option(name: .customLong("set"), parsing: .upToNextOption, help: "The new members (you are always included).") var members: [String] = []
        @Flag(help: "Apply it here and queue it; return at once (`linkstr queue list`, sent by the next sync or the app).") var queue = false

        func execute() async throws {
            let ctx = try CLIContext(global)
            let (me, store) = try ctx.account()
            let members = try members.map(PubkeyNormalizer.cliKey)
            if queue {
                let q = try await ctx.withActions(me, store) { try await $0.queueSetMembers(session: id, members: members, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: nil)
            }
            try await ctx.withActions(me, store) { try await $0.setMembers(session: id, members: members, now: ctx.now, random: SystemRandom()) }
            if global.json, let s = try store.sessionSummary(id) { printLine(Output.json(Output.session(s, held: try store.heldPostCounts()))) }
        }
    }

    struct Rename: LinkstrCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a session (creator only); the members see the new name.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Session id.", completion: Completion.sessionIDs) var id: String
        @Argument(help: "The new name.") var name: String
        @Flag(help: "Apply it here and queue it; return at once (`linkstr queue list`, sent by the next sync or the app).") var queue = false

        func execute() async throws {
            let ctx = try CLIContext(global)
            let (me, store) = try ctx.account()
            if queue {
                let q = try await ctx.withActions(me, store) { try await $0.queueRenameSession(id, to: name, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: nil)
            }
            try await ctx.withActions(me, store) { try await $0.renameSession(id, to: name, now: ctx.now, random: SystemRandom()) }
            if global.json, let s = try store.sessionSummary(id) { printLine(Output.json(Output.session(s, held: try store.heldPostCounts()))) }
        }
    }

    struct Delete: LinkstrCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a session for everyone (creator only). Its posts, reactions and members are removed here and on every member's device; there is no undo.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Session id.", completion: Completion.sessionIDs) var id: String
        @Flag(help: "Confirm: the session is deleted for every member, for good.") var yes = false
        @Flag(help: "Apply it here and queue it; return at once (`linkstr queue list`, sent by the next sync or the app).") var queue = false

        func execute() async throws {
            guard yes else { throw CLIError("this deletes the session for every member, for good: add --yes to confirm.", .usage) }
            let ctx = try CLIContext(global)
            let (me, store) = try ctx.account()
            if queue {
                let q = try await ctx.withActions(me, store) { try await $0.queueDeleteSession(id, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: nil)
            }
            let warnings = try await ctx.withActions(me, store) { try await $0.deleteSession(id, now: ctx.now, random: SystemRandom()) }
            if !warnings.isEmpty { printError(PostDeletionWording.sessionSummary(warnings)) }
            if global.json {
                printLine(Output.json(.object(JSONObject([("id", .string(id)), ("deleted", .bool(true)),
                                                          ("warnings", .array(warnings.map { .string($0) }))]))))
            }
        }
    }

    struct List: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(abstract: "Sessions, newest activity first (● unread).")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "List archived sessions instead.") var archived = false
        @Flag(help: "List session requests instead: sessions from people who are not your contacts, waiting for `session accept` or `session decline` (declined ones last).")
        var requests = false

        func validate() throws {
            if archived && requests { throw ValidationError("choose one of --archived and --requests.") }
        }

        func execute() async throws {
            let ctx = try CLIContext(global)
            let (me, store) = try ctx.account()
            let list: SessionList = requests ? .requests : archived ? .archived : .active
            let sessions = try await ctx.withActions(me, store) { try $0.sessionListing(list).rows }
            if global.json {
                let held = try store.heldPostCounts()
                printLine(Output.json(.array(sessions.map { Output.session($0, held: held) })))
            } else { sessions.forEach { printLine(Output.sessionLine($0)) } }
        }
    }

    struct Archive: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Session id.", completion: Completion.sessionIDs) var id: String
        func execute() async throws { try await SessionCommand.setArchived(global, id, true) }
    }

    struct Unarchive: LinkstrCommand {
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Session id.", completion: Completion.sessionIDs) var id: String
        func execute() async throws { try await SessionCommand.setArchived(global, id, false) }
    }

    /// Archive state is applied here and synced to your own devices as a private preference.
    static func setArchived(_ global: GlobalOptions, _ id: String, _ archived: Bool) async throws {
        let ctx = try CLIContext(global)
        let (me, store) = try ctx.account()
        try await ctx.withActions(me, store) { try await $0.setArchived(id, archived) }
    }

    struct Accept: LinkstrCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accept a session request: it joins your sessions with everything it received (nothing is sent).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Session id (see `session list --requests`).", completion: Completion.sessionIDs) var id: String
        func execute() async throws { try await decide(global, id, .accepted) }
    }

    struct Decline: LinkstrCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decline a session request: hidden, no notifications or previews; `session accept` undoes it (nothing is sent).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Session id (see `session list --requests`).", completion: Completion.sessionIDs) var id: String
        func execute() async throws { try await decide(global, id, .declined) }
    }

    /// Records the decision; with --json prints the session as it now stands.
    static func decide(_ global: GlobalOptions, _ id: String, _ decision: RequestDecision) async throws {
        let ctx = try CLIContext(global)
        let (me, store) = try ctx.account()
        let row = try await ctx.withActions(me, store) { actions in
            do { try actions.decideRequest(id, decision) } catch let e as AccountActions.RequestError { throw CLIError(e.description) }
            return try actions.summary(of: id)
        }
        if global.json, let row { printLine(Output.json(Output.session(row, held: try store.heldPostCounts()))) }
    }
}

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
        let (me, store) = try ctx.account()
        let session = try ctx.sessionID(self.session, in: store)
        if queue {
            let q = try await ctx.withActions(me, store) { try await $0.queuePost(session: session, url: url, note: text, now: ctx.now, drain: false) }
            return QueuedOutput.print(q, json: global.json, shown: q.postID)
        }
        let sent = try await ctx.withActions(me, store) { actions in
            let sent = try await actions.sendPost(session: session, url: url, note: text, now: ctx.now)
            // Each member's delivery to the relays they read is known once it ended (each relay has its deadline).
            await (try await actions.engine()).finishDeliveries()
            return sent
        }
        let deliveries = try store.deliveryRows(of: sent.postID)
        if global.json, let view = try store.postView(sent.postID) {
            printLine(Output.json(Output.post(view, deliveries: deliveries)))
        } else {
            printLine(sent.postID)
        }
        // Said per member, never as delivered when no relay they read took it.
        if !global.json {
            let naming = try PersonNaming(store)
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
        let (_, store) = try CLIContext(global).account()
        guard try store.sessionSummary(session) != nil else { throw SendRuleError.unknownSession }
        let holding = try store.heldPosts(in: session)
        if held { return try Self.printHeld(holding, store, json: global.json) }
        try Self.print(try store.postPage(in: session, limit: limit), store, json: global.json)
        // Said on stderr, so a script reading the JSON array still gets only posts.
        if let summary = HeldReason.summary(holding.map(\.reason)) { printError("\(summary) (`linkstr posts \(session) --held` to see them).") }
    }

    /// Held posts: as `posts` prints posts, each with `held_reason` (JSON) or its reason on its first line.
    static func printHeld(_ held: [HeldPost], _ store: AccountStore, json: Bool) throws {
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
        let naming = try PersonNaming(store)
        for (view, h) in zip(views, held) { printLine("held: \(h.reason.rawValue)\n" + Output.postLines(view) { naming.name($0) }) }
    }

    /// Posts as `posts` and `search` print them: JSON, or a few lines each with names as the app shows them.
    static func print(_ posts: [PostView], _ store: AccountStore, json: Bool) throws {
        // Titles already fetched (by the app or `linkstr preview`); nothing is fetched here.
        let titles = try store.linkTitles(for: posts.map(\.post.url))
        if json {
            let me = store.owner
            let values = try posts.map { Output.post($0, title: titles[$0.post.url], deliveries: $0.post.author == me ? try store.deliveryRows(of: $0.id) : nil) }
            printLine(Output.json(.array(values)))
            return
        }
        let naming = try PersonNaming(store)
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
        let (me, store) = try ctx.account()
        if queue {
            let r = try await ctx.withActions(me, store) { try await $0.queueReaction(post: post, emoji: emoji, active: !off, now: ctx.now, drain: false) }
            guard let q = r.queued else { return printLine(global.json ? Output.json(.object(JSONObject([("post_id", .string(post)), ("changed", .bool(false))]))) : (off ? "no such reaction to take back." : "already reacted.")) }
            return QueuedOutput.print(q, json: global.json, shown: nil)
        }
        let result = try await ctx.withActions(me, store) { try await $0.react(post: post, emoji: emoji, active: !off, now: ctx.now) }
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
        let (me, store) = try ctx.account()
        if queue {
            let q = try await ctx.withActions(me, store) { try await $0.queueDeletePost(post, now: ctx.now, drain: false) }
            return QueuedOutput.print(q, json: global.json, shown: nil)
        }
        let outcome = try await ctx.withActions(me, store) { try await $0.deletePost(post, now: ctx.now) }
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
        let (_, store) = try ctx.account()
        if try store.sessionSummary(id) != nil { try store.markSessionRead(id, now: ctx.now) } else if try store.postView(id) != nil {
            try store.markRead(postID: id, now: ctx.now)
        } else { throw CLIError("no post or session with that id.", .notFound) }
    }
}

struct PreviewCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "preview",
                                                    abstract: "Fetch a page's title and thumbnail (link preview) and cache them for the app, `posts --json` and `media info`.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A web address (or a post id whose link to fetch).") var target: String

    func execute() async throws {
        let ctx = try CLIContext(global)
        // The account's own previews and thumbnails: the app's rules hold (a blocked host is not fetched from).
        try await ctx.withSession { try await run(ctx, $0) }
    }

    private func run(_ ctx: CLIContext, _ session: AccountSession) async throws {
        let (me, store) = (session.key, session.store)
        let post = try store.postView(target)
        let url = post?.post.url ?? WebURL.normalized(target)
        guard let url else { throw CLIError("that is not a web address or a post id.", .invalidInput) }
        if let post {
            // The app's preview rule: a stranger's request does not get our address through its links
            // until it is accepted.
            let allowed = try await ctx.withActions(me, store) { try $0.allowsPreviews(inSession: post.post.sessionID) }
            if !allowed {
                throw CLIError("that post is in a session request: accept the session first (`linkstr session accept \(post.post.sessionID)`).")
            }
        }
        let preview: LinkPreview
        do { preview = try await session.previews.preview(url) } catch { throw CLIError("no preview: \(error)") }
        // The thumbnail too, made small and sealed in the media cache; a page with none (or a picture that
        // does not draw) leaves the title as the answer.
        var thumbnail: Thumbnail?
        if let thumbnails = session.thumbnails {
            await thumbnails.forget(url)
            thumbnail = await thumbnails.refresh([url])[url]
        }
        if global.json {
            let picture: JSONValue = thumbnail.map { .object(JSONObject([("width", .integer(Int64($0.width))), ("height", .integer(Int64($0.height)))])) } ?? .null
            printLine(Output.json(.object(JSONObject([("url", .string(url)), ("title", .string(preview.title)),
                                                      ("site_name", preview.siteName.map { .string($0) } ?? .null), ("thumbnail", picture)]))))
        } else {
            printLine(preview.title + (preview.siteName.map { "\n\($0)" } ?? "") + (thumbnail.map { "\nthumbnail \($0.width)×\($0.height), cached" } ?? ""))
        }
    }
}

struct OpenCommand: LinkstrCommand {
    static let readsOnly = true
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Open a linkstr://open, share or save deep link (or a web address) in the terminal app.",
        discussion: "In a terminal this opens the app on the link, ready to share it into a session (a share link's note filled in). With --print or --json, or when not in a terminal (scripts), it prints what the link carries instead.")
    @OptionGroup var global: GlobalOptions
    @Argument var link: String
    @Flag(help: "Print what the link carries instead of opening the app.") var print = false

    func execute() async throws {
        guard let carried = DeepLink.parse(link) ?? WebURL.normalized(link).map({ DeepLink.Link(url: $0) }) else {
            throw CLIError("that is not a linkstr link or a web address.", .invalidInput)
        }
        if !print, !global.json, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            try Linkstr.refuseTerminalWithoutCursor()
            try Linkstr.runApp(global, theme: nil, openLink: carried)
            return
        }
        let url = carried.url
        let c = URLClassifier.classify(url)
        if global.json {
            printLine(Output.json(.object(JSONObject([("url", .string(url)), ("type", .string(c.type.rawValue)), ("label", .string(c.label)),
                                                      ("embed_url", c.embedURL.map { .string($0) } ?? .null),
                                                      ("action", .string(carried.action.rawValue)),
                                                      ("note", carried.note.map { .string($0) } ?? .null)]))))
        } else {
            printLine("\(url)\n\(c.label) (\(c.type.rawValue))\(c.embedURL.map { "\nembed: \($0)" } ?? "")" + (carried.note.map { "\nnote: \(DisplayText.singleLine($0))" } ?? ""))
        }
    }
}

struct SearchCommand: LinkstrCommand {
    static let readsOnly = true
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Posts whose note, link or page title holds the words (any case), newest first.",
        discussion: "Searched in memory: nothing is indexed on disk. Exit 1 when nothing matches.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The words, as one phrase.") var words: [String]
    @Option(help: "Only this session.", completion: Completion.sessionIDs) var session: String?
    @Option(parsing: .unconditional, help: "At most this many.", transform: Count.parse) var limit = 200

    func execute() async throws {
        let (_, store) = try CLIContext(global).account()
        if let session, try store.sessionSummary(session) == nil { throw SendRuleError.unknownSession }
        let query = words.joined(separator: " ")
        guard !query.trimmingWhitespace().isEmpty else { throw CLIError("give the words to look for.", .usage) }
        let found = try PostSearch(store: store).find(query, in: session, limit: limit)
        let (answer, posts) = (found.answer, found.posts)
        try PostsCommand.print(posts, store, json: global.json)
        if answer.result.hits.count > posts.count || answer.result.truncated {
            printError("\(answer.result.hits.count)\(answer.result.truncated ? "+" : "") posts match; showing \(posts.count) (--limit).")
        }
        if posts.isEmpty {
            if !global.json { printError("no post matches.") }
            throw ExitCode(1)
        }
    }
}
