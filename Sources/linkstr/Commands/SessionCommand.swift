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
            let account = try ctx.account()
            let members = try members.map(PubkeyNormalizer.cliKey)
            if queue {
                let q = try await ctx.withActions { try await $0.queueCreateSession(name: name, members: members, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: q.sessionID)
            }
            let id = try await ctx.withActions { try await $0.createSession(name: name, members: members, now: ctx.now, random: SystemRandom()) }
            if global.json, let s = try account.reads.sessionSummary(id) { printLine(Output.json(Output.session(s, held: try account.reads.heldPostCounts()))) } else { printLine(id) }
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
            let account = try ctx.account()
            let members = try members.map(PubkeyNormalizer.cliKey)
            if queue {
                let q = try await ctx.withActions { try await $0.queueSetMembers(session: id, members: members, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: nil)
            }
            try await ctx.withActions { try await $0.setMembers(session: id, members: members, now: ctx.now, random: SystemRandom()) }
            if global.json, let s = try account.reads.sessionSummary(id) { printLine(Output.json(Output.session(s, held: try account.reads.heldPostCounts()))) }
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
            let account = try ctx.account()
            if queue {
                let q = try await ctx.withActions { try await $0.queueRenameSession(id, to: name, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: nil)
            }
            try await ctx.withActions { try await $0.renameSession(id, to: name, now: ctx.now, random: SystemRandom()) }
            if global.json, let s = try account.reads.sessionSummary(id) { printLine(Output.json(Output.session(s, held: try account.reads.heldPostCounts()))) }
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
            let account = try ctx.account()
            if queue {
                let q = try await ctx.withActions { try await $0.queueDeleteSession(id, now: ctx.now, random: SystemRandom(), drain: false) }
                return QueuedOutput.print(q, json: global.json, shown: nil)
            }
            let warnings = try await ctx.withActions { try await $0.deleteSession(id, now: ctx.now, random: SystemRandom()) }
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
            let account = try ctx.account()
            let list: SessionList = requests ? .requests : archived ? .archived : .active
            let sessions = try await ctx.withActions { try $0.sessionListing(list).rows }
            if global.json {
                let held = try account.reads.heldPostCounts()
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
        let account = try ctx.account()
        try await ctx.withActions { try await $0.setArchived(id, archived) }
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
        let account = try ctx.account()
        let row = try await ctx.withActions { actions in
            do { try actions.decideRequest(id, decision) } catch let e as AccountActions.RequestError { throw CLIError(e.description) }
            return try actions.summary(of: id)
        }
        if global.json, let row { printLine(Output.json(Output.session(row, held: try account.reads.heldPostCounts()))) }
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
        try await ctx.withAccount { try await run(ctx, $0) }
    }

    private func run(_ ctx: CLIContext, _ session: AccountSession) async throws {
        let post = try session.reads.postView(target)
        let url = post?.post.url ?? WebURL.normalized(target)
        guard let url else { throw CLIError("that is not a web address or a post id.", .invalidInput) }
        if let post {
            // The app's preview rule: a stranger's request does not get our address through its links
            // until it is accepted.
            let allowed = try session.actions(requests: ctx.requestPolicy).allowsPreviews(inSession: post.post.sessionID)
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
        let account = try CLIContext(global).account()
        if let session, try account.reads.sessionSummary(session) == nil { throw SendRuleError.unknownSession }
        let query = words.joined(separator: " ")
        guard !query.trimmingWhitespace().isEmpty else { throw CLIError("give the words to look for.", .usage) }
        let found = try account.search.find(query, in: session, limit: limit)
        let (answer, posts) = (found.answer, found.posts)
        try PostsCommand.print(posts, account, json: global.json)
        if answer.result.hits.count > posts.count || answer.result.truncated {
            printError("\(answer.result.hits.count)\(answer.result.truncated ? "+" : "") posts match; showing \(posts.count) (--limit).")
        }
        if posts.isEmpty {
            if !global.json { printError("no post matches.") }
            throw ExitCode(1)
        }
    }
}
