import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrConfig
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import Synchronization

/// `linkstr media`: what the media cache holds for a post.
struct MediaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "media", abstract: "A post's media: its title, thumbnail and saved copy.",
                                                    subcommands: [MediaInfoCommand.self, MediaPlayCommand.self, MediaSaveCommand.self])
}

struct MediaInfoCommand: LinkstrCommand {
    static let readsOnly = true
    static let configuration = CommandConfiguration(commandName: "info", abstract: "A post's title, thumbnail and whether it is saved (nothing is fetched).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The post's id.") var postID: String

    func execute() async throws {
        let ctx = try CLIContext(global)
        let account = try ctx.account()
        let post = try ctx.post(postID, in: account)
        let media = account.mediaCache
        let title = try account.reads.linkTitles(for: [post.url])[post.url].map(DisplayText.singleLine)
        let thumbnail: MediaCache.Entry?
        do { thumbnail = try media?.entry(Thumbnails.key(post.url)) } catch { throw CLIError("the media cache: \(error)") }
        let kind = URLClassifier.classify(post.url)
        let saved = try media.flatMap { try $0.entry(MediaSaver.key(post.url)) }
        if global.json {
            let picture: JSONValue = thumbnail.map { entry in
                .object(JSONObject([("width", .integer(Int64(entry.width ?? 0))), ("height", .integer(Int64(entry.height ?? 0))),
                                    ("format", entry.format.map { .string($0) } ?? .null), ("source", .string(DisplayText.singleLine(entry.source))),
                                    ("cached_at", .integer(entry.savedAt))]))
            } ?? .null
            printLine(Output.json(.object(JSONObject([
                ("post_id", .string(post.id)), ("url", .string(DisplayText.singleLine(post.url))), ("type", .string(kind.type.rawValue)),
                ("label", .string(kind.label)), ("playable", .bool(kind.isPlayable)), ("title", title.map { .string($0) } ?? .null),
                ("thumbnail", picture), ("saved", .bool(saved != nil)), ("saved_kind", saved.map { .string($0.kind.rawValue) } ?? .null),
            ]))))
        } else {
            var lines = [DisplayText.singleLine(post.url), "\(kind.label)\(kind.isPlayable ? " (plays)" : "")"]
            lines.append("title: " + (title ?? "none fetched"))
            lines.append("thumbnail: " + (thumbnail.map { "\($0.width ?? 0)×\($0.height ?? 0) \($0.format ?? "image"), cached" } ?? "none cached"))
            lines.append("saved: " + (saved.map { "yes, a \($0.kind.rawValue) (plays from the cache)" } ?? "no"))
            printLine(lines.joined(separator: "\n"))
        }
    }
}

struct MediaPlayCommand: LinkstrCommand {
    static let readsOnly = true
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play a post's video with mpv (or `player` in config.toml), saying on stderr what happens.",
        discussion: "Exit status 0 when it played to its end or was closed, 1 when it could not play (the reason and the fix on stderr), or when the saved copy was found damaged while it played (it is removed; save it again).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The post's id.") var postID: String
    @Flag(name: .customLong("in-terminal"), help: "Play in this terminal (mpv's kitty or truecolour output) instead of a window.") var inTerminal = false

    func execute() async throws {
        let ctx = try CLIContext(global)
        let account = try ctx.account()
        let post = try ctx.post(postID, in: account)
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        let settings = ctx.config.playerSettings(terminalOutput: inTerminal || ctx.config.playsInTerminal(environment: ProcessInfo.processInfo.environment) ? (term == "xterm-kitty" ? "kitty" : "tct") : nil)
        let events = Mutex<[PlaybackEvent]>([])
        let saved = account.mediaCache.flatMap { SavedCopy.of(post.url, in: $0) }
        await MediaPlayer.play(post.url, settings: settings, saved: saved) { event in
            events.withLock { $0.append(event) }
            FileHandle.standardError.write(Data("linkstr: \(event.words)\n".utf8))
        }
        let all = events.withLock { $0 }
        if global.json {
            printLine(Output.json(.object(JSONObject([("post_id", .string(post.id)), ("events", .array(all.map { .string($0.words) }))]))))
        }
        if case .failed = all.last { throw ExitCode(1) }
    }
}

struct MediaSaveCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a post's video (through yt-dlp) or image into the sealed media cache, for offline.",
        discussion: "Progress goes to stderr. `media play` then plays the saved copy through a pipe; nothing is written out in the clear. A copy larger than media_cache_mb is refused while it arrives, nothing kept; what a killed save left is removed first.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The post's id.") var postID: String

    func execute() async throws {
        let ctx = try CLIContext(global)
        // The account's own saver: a host we blocked is not fetched from; this command holds the data
        // lock, so what a killed save left goes first.
        try await ctx.withAccount(holdsDataLock: true) { try await run(ctx, $0) }
    }

    private func run(_ ctx: CLIContext, _ session: AccountSession) async throws {
        let post = try ctx.post(postID, in: session)
        // Saving fetches the link: a stranger's request does not get our address until it is accepted.
        guard try session.actions(requests: ctx.requestPolicy).allowsPreviews(inSession: post.sessionID) else {
            throw CLIError("that post is in a session request: accept the session first (`linkstr session accept \(post.sessionID)`).")
        }
        guard let saver = session.saver else { throw CLIError("there is no media cache here.") }
        let last = Mutex<SaveProgress?>(nil)
        let shown = Mutex(-1)
        await saver.save(post.url, now: ctx.now) { progress in
            last.withLock { $0 = progress }
            if case .saving(let fraction) = progress {
                // A line per whole ten per cent, not one per yt-dlp line.
                let step = fraction.map { Int($0 * 10) } ?? 0
                let isNew = shown.withLock { last in
                    guard step > last else { return false }
                    last = step
                    return true
                }
                guard isNew else { return }
                FileHandle.standardError.write(Data("linkstr: saving… \(fraction.map { "\(Int($0 * 100))%" } ?? "")\n".utf8))
            } else {
                FileHandle.standardError.write(Data("linkstr: \(progress.words(play: "`linkstr media play \(post.id)`"))\n".utf8))
            }
        }
        guard case .saved(let bytes, let video) = last.withLock({ $0 }) else { throw ExitCode(1) }
        if global.json {
            printLine(Output.json(.object(JSONObject([("post_id", .string(post.id)), ("bytes", .integer(bytes)),
                                                      ("kind", .string(video ? "video" : "image"))]))))
        }
    }
}

/// `linkstr cache`: the account's media cache (thumbnails, saved media) and cached page titles.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cache", abstract: "How much the media cache holds, and clearing it (posts stay).",
                                                    subcommands: [CacheUsageCommand.self, CacheClearCommand.self])
}

struct CacheUsageCommand: LinkstrCommand {
    static let readsOnly = true
    static let configuration = CommandConfiguration(commandName: "usage", abstract: "Files and bytes in the media cache, and its limit (media_cache_mb); unfinished files a killed save left count too.")
    @OptionGroup var global: GlobalOptions

    func execute() async throws {
        let ctx = try CLIContext(global)
        let usage = try ctx.mediaUsage().1
        let limit = Int64(ctx.config.mediaCacheMB) << 20
        Output.say("media cache: \(usage.files) file\(usage.files == 1 ? "" : "s"), \(MediaSize.words(usage.bytes)) of \(MediaSize.words(limit))",
                   json: global.json, [("files", .integer(Int64(usage.files))), ("bytes", .integer(usage.bytes)), ("limit_bytes", .integer(limit))])
    }
}

struct CacheClearCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove cached thumbnails, saved media and page titles (posts stay).")
    @OptionGroup var global: GlobalOptions

    func execute() async throws {
        let ctx = try CLIContext(global)
        let (media, usage) = try ctx.mediaUsage()
        do { try media?.clear() } catch { throw CLIError("the media cache: \(error)") }
        try ctx.account().clearLinkMetadata()
        Output.say("cleared \(usage.files) file\(usage.files == 1 ? "" : "s") (\(MediaSize.words(usage.bytes))) and the cached page titles; posts stay.",
                   json: global.json, [("cleared_files", .integer(Int64(usage.files))), ("cleared_bytes", .integer(usage.bytes))])
    }
}

extension CLIContext {
    /// The post `id`, or the error that says there is none.
    func post(_ id: String, in account: AccountSession) throws -> PostRecord {
        guard let post = try account.reads.postView(id)?.post else { throw CLIError("no post \(id).", .notFound) }
        return post
    }

    /// The open account's media cache and what it holds now.
    func mediaUsage() throws -> (MediaCache?, MediaCache.Usage) {
        let media = try account().mediaCache
        do { return (media, try media?.usage() ?? .init(files: 0, bytes: 0)) } catch { throw CLIError("the media cache: \(error)") }
    }
}
