import LinkstrDomain

/// One `:` command, described once: its names, its help line, what Tab offers for its argument, and
/// what it does. The parser, the completion and the help all read `CommandTable.all` (the shape of
/// iamb's `commands.rs`), so a command cannot exist in one and be missing from another.
struct Command: Sendable {
    /// The first is its name; the others are aliases (`q` for `quit`), completed never, run always.
    let names: [String]
    /// Its line in the help ("" when another command's line covers it: `:export[-ios] PATH`).
    let help: String
    /// What Tab completes its argument among (nil: nothing by name).
    let argumentNames: (@Sendable (AppState) -> [String])?
    /// Tab completes an emoji shortcode (`:react :fire`).
    let completesEmoji: Bool
    let run: @Sendable (inout AppState, CommandInput) -> [AppEffect]

    init(_ names: [String], help: String, argumentNames: (@Sendable (AppState) -> [String])? = nil, completesEmoji: Bool = false,
         _ run: @escaping @Sendable (inout AppState, CommandInput) -> [AppEffect]) {
        self.names = names
        self.help = help
        self.argumentNames = argumentNames
        self.completesEmoji = completesEmoji
        self.run = run
    }

    var name: String { names[0] }
}

/// A command line as typed, and what it is about.
struct CommandInput {
    /// The command's name as typed, lowercased (an alias stays an alias).
    let name: String
    /// The words: the name, the first argument, and the rest of the line as one.
    let parts: [String]
    /// The post shown or selected.
    let post: PostView?
    /// The session a command is about: the open one, else the one selected in the list.
    let session: SessionSummary?

    /// Everything after the name.
    var argument: String { parts.dropFirst().joined(separator: " ").trimmingWhitespace() }
}

/// Every `:` command, in the order the help lists them.
enum CommandTable {
    static let all: [Command] = [
        Command(["post"], help: ":post URL note", AppReducer.postCommand),
        Command(["react"], help: ":react 👍", completesEmoji: true, AppReducer.reactCommand),
        Command(["who"], help: ":who", AppReducer.whoCommand),
        Command(["open"], help: ":open") { state, input in
            let shown = state
            return AppReducer.withPost(&state, input) { [AppReducer.open(shown, $0.post.url)] }
        },
        Command(["copy"], help: ":copy") { state, input in AppReducer.withPost(&state, input) { [.copy($0.post.url, label: "link")] } },
        Command(["read"], help: ":read") { state, input in AppReducer.withSession(&state, input) { AppReducer.markAllRead(&$0, $1) } },
        Command(["unread"], help: ":unread") { state, _ in AppReducer.nextUnread(&state) },
        Command(["search"], help: ":search WORDS") { state, input in AppReducer.startSearch(&state, input.argument, in: nil) },
        Command(["session"], help: ":session NAME", argumentNames: AppReducer.sessionNames, AppReducer.sessionCommand),
        Command(["requests"], help: ":requests") { state, _ in
            state.pane = .sessions
            state.sessions.open = nil
            return AppReducer.showList(&state, .requests)
        },
        Command(["accept"], help: ":accept") { state, input in AppReducer.decideCommand(&state, input, .accepted) },
        Command(["decline"], help: ":decline") { state, input in AppReducer.decideCommand(&state, input, .declined) },
        Command(["archive"], help: ":archive") { state, input in AppReducer.archiveCommand(&state, input, archived: true) },
        Command(["unarchive"], help: ":unarchive") { state, input in AppReducer.archiveCommand(&state, input, archived: false) },
        Command(["mute"], help: ":mute") { state, input in AppReducer.muteCommand(&state, input, muted: true) },
        Command(["unmute"], help: ":unmute") { state, input in AppReducer.muteCommand(&state, input, muted: false) },
        Command(["members"], help: ":members") { state, input in
            AppReducer.withSession(&state, input) { state, row in
                state.overlay = .members(MembersForm(sessionID: row.id, selected: Set(row.members), editable: row.creator == state.identity?.pubkey))
                return [.you(.loadContacts)]
            }
        },
        Command(["rename"], help: ":rename NAME", argumentNames: { state in (state.sessions.open?.summary).map { [DisplayText.singleLine($0.name)] } ?? [] },
                AppReducer.renameCommand),
        Command(["delete-session"], help: ":delete-session", AppReducer.deleteSessionCommand),
        Command(["held"], help: ":held", AppReducer.heldCommand),
        Command(["messages"], help: ":messages", AppReducer.messagesCommand),
        Command(["lock"], help: ":lock (^X)") { state, _ in
            // The command line closes first: the lock screen shows nothing typed.
            state.overlay = nil
            return AppReducer.lock(&state)
        },
        Command(["relay"], help: ":relay add|remove|test URL", AppReducer.relayCommand),
        Command(["doctor"], help: ":doctor", AppReducer.doctorCommand),
        Command(["export"], help: ":export[-ios] PATH") { state, input in AppReducer.exportCommand(&state, input, ios: false) },
        Command(["export-ios"], help: "") { state, input in AppReducer.exportCommand(&state, input, ios: true) },
        Command(["export-session"], help: ":export-session PATH", AppReducer.exportSessionCommand),
        Command(["theme"], help: ":theme NAME", argumentNames: { _ in AppReducer.themes }, AppReducer.themeCommand),
        Command(["help"], help: ":help") { state, _ in
            state.overlay = .help
            state.helpScroll = 0
            return []
        },
        Command(["repair"], help: ":repair") { state, _ in
            state.overlay = .confirm(Confirmation(.repairDamagedRecords,
                                                  "drop the stored records that no longer open? relays bring back what they still hold at the next start. (y/n)"))
            return []
        },
        Command(["quit", "q"], help: ":q quit") { state, _ in AppReducer.quit(&state) },
        Command(["wipe!"], help: ":wipe!") { state, _ in
            state.overlay = .confirm(Confirmation(.wipe, "erase every identity and all linkstr data on this device, then quit? nothing goes to relays. (y/n)"))
            return []
        },
    ]

    /// The command a typed name runs (a name or an alias, any case).
    static func command(named name: String) -> Command? {
        let lower = name.lowercased()
        return all.first { $0.names.contains(lower) }
    }

    /// The names Tab completes, sorted.
    static var names: [String] { all.map(\.name).sorted() }

    /// The help's command lines, in order.
    static var helpLines: [String] { all.map(\.help).filter { !$0.isEmpty } }
}
