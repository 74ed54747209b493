/// Where a key binding applies: `global` in every pane; the others where the app shows that view.
public enum KeyContext: String, Equatable, Hashable, Sendable, CaseIterable {
    case global, list, feed, post, you, settings

    /// The help section's title.
    public var title: String {
        switch self {
        case .global: return "App"
        case .list: return "Sessions"
        case .feed: return "Session"
        case .post: return "Post"
        case .you: return "You"
        case .settings: return "Settings"
        }
    }
}

/// One rebindable action: its name in `keys.toml`, its default keys (the first is the one the reducers
/// know), and its words in the help.
public struct KeyBinding: Equatable, Sendable {
    public var context: KeyContext
    public var action: String
    public var defaults: [Key]
    public var help: String
    init(_ context: KeyContext, _ action: String, _ defaults: [Key], _ help: String) {
        self.context = context; self.action = action; self.defaults = defaults; self.help = help
    }
}

/// The keys: the defaults, and the user's `keys.toml` over them.
///
/// The reducers are written against the default keys. A key the user bound is translated, before the
/// reducers see it, to the default key of its action; a default key whose action was given other keys
/// is unbound (unless another action still has it). So the reducers stay as they are and the help,
/// generated from the same table, always shows the keys in force.
public struct Keymap: Equatable, Sendable {
    /// The user's keys, by context and action (only the actions they changed).
    public private(set) var overrides: [KeyContext: [String: [Key]]] = [:]

    public init() {}

    public static let standard = Keymap()

    public static let bindings: [KeyBinding] = [
        .init(.global, "help", [.char("?")], "help"),
        .init(.global, "command", [.char(":")], "command line"),
        .init(.global, "lock", [AppReducer.lockKey], "lock"),
        .init(.global, "next_unread", [.char("u")], "next unread"),
        .init(.global, "quit", [.char("q")], "quit (Ctrl-C anywhere)"),
        .init(.global, "pane_sessions", [.char("1")], "Sessions"),
        .init(.global, "pane_post", [.char("2")], "Post"),
        .init(.global, "pane_you", [.char("3")], "You"),
        .init(.global, "pane_settings", [.char("4")], "Settings"),
        .init(.global, "next_pane", [.tab], "next pane"),
        .init(.global, "previous_pane", [.backTab], "previous pane"),
        .init(.global, "down", [.char("j"), .down], "down"),
        .init(.global, "up", [.char("k"), .up], "up"),
        .init(.global, "top", [.char("g"), .home], "top"),
        .init(.global, "bottom", [.char("G"), .end], "bottom"),
        .init(.global, "page_down", [.pageDown], "a screen down"),
        .init(.global, "page_up", [.pageUp], "a screen up"),

        .init(.list, "open", [.enter, .char("l"), .right], "open"),
        .init(.list, "new_session", [.char("n")], "new"),
        .init(.list, "filter", [.char("/")], "filter by name"),
        .init(.list, "mark_read", [.char("r")], "mark all read"),
        .init(.list, "archive", [.char("a")], "archive"),
        .init(.list, "archived", [.char("A")], "archived list"),
        .init(.list, "mute", [.char("M")], "mute"),
        .init(.list, "requests", [.char("R")], "strangers' sessions"),
        .init(.list, "accept", [.char("y")], "accept a request"),
        .init(.list, "decline", [.char("x")], "decline (again: undo)"),

        .init(.feed, "open_post", [.enter, .char("l"), .right], "details (marks read)"),
        .init(.feed, "back", [.escape, .char("h"), .left, .char("q")], "back"),
        .init(.feed, "compose", [.char("c"), .char("p")], "share a link"),
        .init(.feed, "open_link", [.char("o")], "open link"),
        .init(.feed, "hint_open", [.char("f")], "label: open"),
        .init(.feed, "hint_copy", [.char("F")], "label: copy"),
        .init(.feed, "search", [.char("/")], "search"),
        .init(.feed, "next_match", [.char("n")], "next match"),
        .init(.feed, "previous_match", [.char("N")], "previous match"),
        .init(.feed, "members", [.char("m")], "members"),
        .init(.feed, "mark_read", [.char("r")], "mark all read"),
        .init(.feed, "mute", [.char("M")], "mute"),
        .init(.feed, "accept", [.char("y")], "accept a request"),
        .init(.feed, "decline", [.char("x")], "decline"),

        .init(.post, "back", [.escape, .char("q"), .char("h")], "back"),
        .init(.post, "open", [.char("o")], "open/play"),
        .init(.post, "copy_link", [.char("y")], "copy link"),
        .init(.post, "copy_deep_link", [.char("Y")], "copy linkstr://"),
        .init(.post, "emoji", [.char("e")], "emoji"),
        .init(.post, "next_reaction", [.right, .char("l")], "next reaction"),
        .init(.post, "previous_reaction", [.left], "previous reaction"),
        .init(.post, "toggle_reaction", [.enter, .char(" ")], "toggle it"),
        .init(.post, "delete", [.char("d")], "delete"),
        .init(.post, "refresh", [.char("R")], "refresh title and picture"),
        .init(.post, "save", [.char("s")], "save for offline (again: cancel)"),
        .init(.post, "retry_send", [.char("r")], "unsent: try again now"),
        .init(.post, "cancel_send", [.char("x")], "unsent: cancel it"),

        .init(.you, "edit_name", [.char("e")], "profile name"),
        .init(.you, "copy_npub", [.char("y")], "copy npub"),
        .init(.you, "add_contact", [.char("a"), .char("+")], "add contact"),
        .init(.you, "rename", [.char("r"), .enter], "rename/add/switch"),
        .init(.you, "remove", [.char("x"), .delete], "remove"),
        .init(.you, "added_you", [.char("f")], "who added you"),

        .init(.settings, "add_relay", [.char("a")], "add relay"),
        .init(.settings, "remove_relay", [.char("x"), .delete], "remove"),
        .init(.settings, "toggle_relay", [.char(" ")], "on/off"),
        .init(.settings, "test_relay", [.char("t")], "test relay"),
        .init(.settings, "default_relays", [.char("R")], "defaults"),
        .init(.settings, "stats", [.char("s")], "stats"),
        .init(.settings, "blocked_relays", [.char("b")], "blocked relays"),
        .init(.settings, "inbox_relays", [.char("i")], "inbox relays"),
        .init(.settings, "clear_cache", [.char("C")], "clear cache"),
        .init(.settings, "show_secret", [.char("S")], "show nsec"),
        .init(.settings, "copy_secret", [.char("y")], "copy shown nsec"),
        .init(.settings, "change_passphrase", [.char("P")], "change passphrase"),
        .init(.settings, "keyring", [.char("K")], "keyring on/off"),
        .init(.settings, "log_out", [.char("L")], "log out"),
        .init(.settings, "log_out_clear", [.char("X")], "log out+clear"),
        .init(.settings, "delete_account", [.char("D")], "delete account (asks twice)"),
    ]

    /// The keys in force for an action.
    public func keys(_ binding: KeyBinding) -> [Key] { overrides[binding.context]?[binding.action] ?? binding.defaults }

    func overridden(_ binding: KeyBinding) -> Bool { overrides[binding.context]?[binding.action] != nil }

    /// What the reducers should see for `key` pressed in `context`: the default key of the action the
    /// user bound it to, the key itself, or nil when the user moved its action elsewhere.
    public func translate(_ key: Key, in context: KeyContext) -> Key? {
        guard !overrides.isEmpty else { return key }
        // The context's own bindings first: they win over the global ones.
        let scope = Self.bindings.filter { $0.context == context } + Self.bindings.filter { $0.context == .global && context != .global }
        if let bound = scope.first(where: { overridden($0) && keys($0).contains(key) }) { return bound.defaults[0] }
        let stillDefault = scope.contains { !overridden($0) && $0.defaults.contains(key) }
        let movedAway = scope.contains { overridden($0) && $0.defaults.contains(key) }
        return movedAway && !stillDefault ? nil : key
    }

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }

    /// A keymap from `keys.toml`'s tables (context → action → key names); every mistake is refused
    /// with its place: an unknown context or action, a key name that is not one, a key used twice.
    public static func make(_ tables: [String: [String: [String]]]) throws(Failure) -> Keymap {
        var map = Keymap()
        for (contextName, actions) in tables.sorted(by: { $0.key < $1.key }) {
            guard let context = KeyContext(rawValue: contextName) else {
                throw Failure("[\(contextName)] is not a context: use \(KeyContext.allCases.map { "[\($0.rawValue)]" }.joined(separator: ", "))")
            }
            for (action, names) in actions.sorted(by: { $0.key < $1.key }) {
                guard bindings.contains(where: { $0.context == context && $0.action == action }) else {
                    let known = bindings.filter { $0.context == context }.map(\.action).joined(separator: ", ")
                    throw Failure("[\(contextName)] \(action) is not an action there: \(known)")
                }
                guard !names.isEmpty else { throw Failure("[\(contextName)] \(action) needs at least one key") }
                var keys = [Key]()
                for name in names {
                    guard let key = Key(name: name) else {
                        throw Failure("[\(contextName)] \(action): \"\(name)\" is not a key (a character, or enter, esc, tab, space, up, pgdn, ctrl-x, f5…)")
                    }
                    keys.append(key)
                }
                map.overrides[context, default: [:]][action] = keys
            }
        }
        // A key means one thing where it is pressed: two actions that can meet (one context, or one of
        // them global) never share a key once the user changed either.
        for (i, a) in bindings.enumerated() {
            for b in bindings[(i + 1)...] where (a.context == b.context || a.context == .global || b.context == .global)
                && (map.overridden(a) || map.overridden(b)) {
                // Overlaps the defaults have on purpose (q quits, and goes back in a feed) stay allowed.
                if let shared = map.keys(a).first(where: { map.keys(b).contains($0) && !(a.defaults.contains($0) && b.defaults.contains($0)) }) {
                    throw Failure("\(shared.name) is bound to both [\(a.context.rawValue)] \(a.action) and [\(b.context.rawValue)] \(b.action)")
                }
            }
        }
        return map
    }
}

extension Key {
    /// A key from its name in `keys.toml`: one character ("u", "/", "U"), or enter, esc, tab, backtab,
    /// space, backspace, delete, up, down, left, right, home, end, pgup, pgdn, ctrl-x (also C-x, ^X), f1…f12.
    public init?(name raw: String) {
        let name = raw.trimmingWhitespace()
        if name.count == 1, let c = name.first, !c.isWhitespace, c.isASCII ? (c.asciiValue! >= 0x21 && c.asciiValue! < 0x7F) : true {
            self = .char(c)
            return
        }
        let lower = name.lowercased()
        for prefix in ["ctrl-", "ctrl+", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let c = rest.first, c.isLetter, c.isASCII else { return nil }
            self = .ctrl(c)
            return
        }
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) { self = .function(n); return }
        let named: [String: Key] = ["enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "tab": .tab,
                                    "backtab": .backTab, "shift-tab": .backTab, "space": .char(" "), "backspace": .backspace,
                                    "delete": .delete, "del": .delete, "up": .up, "down": .down, "left": .left, "right": .right,
                                    "home": .home, "end": .end, "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown]
        guard let key = named[lower] else { return nil }
        self = key
    }

    /// How the help writes the key.
    public var name: String {
        switch self {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .backspace: return "Bksp"
        case .delete: return "Del"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .ctrl(let c): return "^" + String(c).uppercased()
        case .function(let n): return "F\(n)"
        }
    }
}
