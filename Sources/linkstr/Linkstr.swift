import ArgumentParser
import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrConfig
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrTUI
#if canImport(Glibc)
import Glibc
#endif

@main
struct Linkstr: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linkstr",
        abstract: "A private link feed for people you trust, over NIP-59 gift-wrapped Nostr events.",
        discussion: "Without a command, opens the terminal app. Under --json every command prints one JSON document.\n\n"
            + ExitStatus.documentation,
        version: Version.full,
        subcommands: [IdentityCommand.self, LogoutCommand.self, AccountCommand.self, ContactsCommand.self, RelaysCommand.self,
                      SessionCommand.self, PostCommand.self, PostsCommand.self, ReactCommand.self, DeleteCommand.self,
                      ReadCommand.self, SearchCommand.self, SyncCommand.self, OpenCommand.self, PreviewCommand.self, MediaCommand.self, CacheCommand.self,
                      BackupCommand.self, RepairCommand.self, WipeCommand.self, DoctorCommand.self, ExportCommand.self, QueueCommand.self]
    )

    @OptionGroup var global: GlobalOptions

    /// Before anything else: no core dumps, and a crash restores the terminal and ends the process
    /// (releasing the data lock) instead of leaving a backtrace over the screen (`FatalSignals`).
    static func main() async {
        BoundedRead.reserveStandardDescriptors()
        FatalSignals.disableCoreDumps()
        FatalSignals.install()
        await Self.main(nil)
    }

    @Option(name: .long, help: "Colour theme: night, storm, moon or day (default: `theme` in config.toml, else night).")
    var theme: String?

    @Option(name: .long, help: "How pictures are drawn: auto, kitty, sixel, iterm, symbols or off (default: `images` in config.toml, else auto).")
    var images: String?

    /// A terminal that cannot move its cursor (`TERM=dumb`, or none) drew the app on one line: say so.
    static func refuseTerminalWithoutCursor(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let term = environment["TERM"] ?? ""
        guard term.isEmpty || term == "dumb" else { return }
        throw CLIError("this terminal (TERM=\(term.isEmpty ? "unset" : term)) cannot draw the full-screen app. Run it in a terminal "
                       + "such as xterm, or use the commands instead: `linkstr --help` lists them (sync, post, posts, search…).")
    }

    func run() async throws {
        do {
            guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
                throw CLIError("the terminal app needs a terminal. For scripts, see `linkstr --help` for commands.")
            }
            try Self.refuseTerminalWithoutCursor()
            var setting: ImageSetting?
            if let images {
                guard let parsed = ImageSetting(rawValue: images) else { throw CLIError("--images is \(ImageSetting.choices)", .invalidInput) }
                setting = parsed
            }
            try Self.runApp(global, theme: theme, images: setting, openLink: nil)
        } catch let e as CLIError {
            // As every command says it: one plain line, exit status 1.
            FileHandle.standardError.write(Data("linkstr: \(e.description)\n".utf8))
            throw ExitCode(e.status.rawValue)
        }
    }

    /// The terminal app, optionally showing `openLink` once the account is open.
    static func runApp(_ global: GlobalOptions, theme: String?, images: ImageSetting? = nil, openLink: DeepLink.Link?) throws {
        let paths = DataPaths.resolve(home: global.home)
        // A mistyped --relay is an error here as in every command, before the screen is taken.
        do { _ = try RelayList.validated(global.relays) } catch { throw CLIError(error.description, .invalidInput) }
        // One app per data directory: a second one says who holds it and leaves the terminal alone.
        let lock: DataLock
        do { lock = try DataLock.acquire(paths) } catch {
            // The app already runs here: a link goes to it instead of a refusal.
            if case .locked = error, let openLink {
                if LinkHandOff.send(DeepLink.encode(openLink), paths) {
                    FileHandle.standardError.write(Data("linkstr: the link was handed to the linkstr already running here.\n".utf8))
                    return
                }
                // Never lost: the running app did not take it, so it is given back to the user whole.
                throw CLIError(error.description + " It did not take the link, which is: " + DisplayText.singleLine(DeepLink.encode(openLink)),
                               ExitStatus.of(error))
            }
            throw CLIError(error.description, ExitStatus.of(error))
        }
        defer { lock.release() }
        global.startLogging(paths)
        let config: ConfigFile
        do { config = try ConfigFile.load(in: paths.config) } catch { throw CLIError("\(error)") }
        let keymap: Keymap
        do { keymap = try KeymapFile.load(in: paths.config) } catch { throw CLIError("\(error)") }
        let variant = theme ?? config.theme ?? "night"
        let chosen: Theme
        do { chosen = try Theme.load(variant, configDirectory: paths.config) } catch { throw CLIError("\(error)") }
        try TLSTrust.use(caFile: config.tlsCAFile)
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let options = AppOptions(home: global.home, relays: global.relays, passphraseFile: global.passphraseFile,
                                 theme: variant, noColor: noColor, linkPreviews: config.linkPreviews,
                                 sessionRequests: config.sessionRequests,
                                 openLink: openLink, version: "linkstr " + Version.full)
        var configured = options
        configured.passphraseCommand = try global.passphraseCommand(configured: config.passphraseCommand)
        configured.notify = config.notify
        configured.notifyWording = config.notifyWording
        configured.lockAfter = config.lockAfter
        configured.lockKeepsSyncing = config.lockKeepsSyncing
        configured.mouse = config.mouse
        configured.reopen = config.reopen
        configured.keymap = keymap
        configured.hyperlinks = config.hyperlinks.enabled(environment: ProcessInfo.processInfo.environment)
        // Pictures: decided before curses takes the terminal (the query reads the terminal's answers).
        let pictures = (images ?? config.images).resolve(environment: ProcessInfo.processInfo.environment, noColor: noColor,
                                                         tmuxPassthrough: TmuxPassthrough.isOn, query: { TerminalQuery.ask() },
                                                         windowCell: TerminalQuery.cellFromWindowSize)
        configured.images = pictures.proto
        configured.imagesThroughTmux = pictures.throughTmux
        configured.cellPixels = pictures.cell
        configured.mediaCacheBytes = Int64(config.mediaCacheMB) << 20
        configured.queueHoldAfterDays = config.queueHoldAfterDays
        configured.hooks = config.hooks
        configured.indexerRelays = config.indexerRelays
        configured.player = config.playerSettings(terminalOutput: config.playsInTerminal(environment: ProcessInfo.processInfo.environment) ? (pictures.proto == .kitty && !pictures.throughTmux ? "kitty" : "tct") : nil)
        let app = TerminalApp(options: configured, theme: chosen)
        let receive = app.receiveLink
        let door = LinkHandOff.listen(paths) { text in if let link = DeepLink.parse(text) { receive(link) } }
        defer { door?.close() }
        app.run()
    }
}
