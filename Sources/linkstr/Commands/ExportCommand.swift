import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// `linkstr export SESSION [--format md|html|json] [--output FILE] [--since DATE]`: a session in a form
/// to read and keep. The file is plaintext: said once on stderr; never written inside the data
/// directory; written whole or not at all (a temporary file, synced, renamed), 0600; an existing file is
/// replaced only after a yes on the terminal (or `--force`).
struct ExportCommand: LinkstrCommand {
    static let readsOnly = true
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a session's posts out as Markdown, one self-contained HTML file, or JSON (plaintext).",
        discussion: "Posts in time order with who shared them, when (local time), the link, the page title, the note and the reactions; "
            + "deleted posts are left out. The JSON's schema is docs/spec/export-json.md (\"schema\": \"linkstr.session-export\", \"version\": 1). "
            + "Without --output the export goes to standard output.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Session id, or its name (the start of it is enough when only one session's name starts so).",
              completion: Completion.sessionIDs) var session: String
    @Option(help: "md (default), html or json.") var format: String = "md"
    @Option(name: .customLong("output"), help: "The file to write (refused inside the data directory).") var output: String?
    @Option(help: "Only posts from this day on (YYYY-MM-DD, local time).") var since: String?
    @Flag(help: "Replace an existing --output file without asking.") var force = false
    @Flag(name: .customLong("with-thumbnails"),
          help: "In the HTML form, each post's picture as cached (inlined: the file still loads nothing); nothing is fetched for it.")
    var withThumbnails = false

    func execute() async throws {
        guard let format = ExportFormat(rawValue: format.lowercased()) else { throw CLIError("--format is md, html or json.", .usage) }
        let sinceTime = try since.map(Self.day)
        if withThumbnails && format != .html { throw CLIError("--with-thumbnails goes with --format html (the other forms hold no pictures).", .usage) }
        let ctx = try CLIContext(global)
        let account = try ctx.account()
        let sid = try ctx.sessionID(session, in: account)
        // The account's media cache, through the account (nothing is fetched: an export reads what is kept);
        // closed once the file is written, whatever happens.
        try await ctx.withAccount { account in try write(ctx, account, sid, format, sinceTime, media: withThumbnails ? account.thumbnails?.media : nil) }
    }

    private func write(_ ctx: CLIContext, _ account: AccountSession, _ sid: String, _ format: ExportFormat, _ sinceTime: Int64?,
                       media: MediaCache?) throws {
        guard let output else {
            guard let exported = try account.readExport(sid, since: sinceTime, now: ctx.now, thumbnails: media) else {
                throw CLIError("no session \(sid).", .notFound)
            }
            FileHandle.standardOutput.write(Data(SessionExport.write(exported, as: format).utf8))
            return
        }
        let path = SessionExportFile.resolved(output)
        var replacing = force
        if !force, FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.isReadableFile(atPath: "/dev/tty"),
                  TerminalPrompt.line("\(path) exists: replace it? [y/N] ")?.lowercased().hasPrefix("y") == true else {
                throw CLIError("\(path) exists: nothing was written (--force replaces it).", .invalidInput)
            }
            replacing = true
        }
        let exported: ExportedSession
        do throws(SessionExportFile.Failure) {
            exported = try account.exportSession(sid, to: path, format: format, since: sinceTime, replacing: replacing,
                                                 dataDirectory: ctx.paths.home, now: ctx.now, thumbnails: media)
        } catch {
            switch error {
            case .noSession: throw CLIError("no session \(sid).", .notFound)
            case .exists: throw CLIError("\(path) exists: nothing was written (--force replaces it).", .invalidInput)
            case .insideDataDirectory: throw CLIError(error.description, .invalidInput)
            case .cannotWrite: throw CLIError(error.description, .storage)
            }
        }
        printError("the export is not encrypted: anyone who can read \(path) reads the session.")
        Output.say("wrote \(exported.posts.count) post\(exported.posts.count == 1 ? "" : "s") of \(DisplayText.singleLine(exported.name)) to \(path).",
                   json: global.json, [("path", .string(path)), ("posts", .integer(Int64(exported.posts.count))), ("format", .string(format.rawValue))])
    }

    /// YYYY-MM-DD at local midnight, as Unix time.
    static func day(_ text: String) throws -> Int64 {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone.current
        f.dateFormat = "yyyy-MM-dd"
        guard let date = f.date(from: text.trimmingCharacters(in: .whitespaces)) else { throw CLIError("--since is a day: YYYY-MM-DD.", .usage) }
        return Int64(date.timeIntervalSince1970)
    }
}
