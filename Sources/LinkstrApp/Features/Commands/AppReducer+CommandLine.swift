import LinkstrDomain

/// Tab on the `:` command line: the command's name, then what `CommandTable` says its argument takes.
extension AppReducer {
    /// Every `:` command's name, for completion (`CommandTable`).
    public static var commands: [String] { CommandTable.names }

    /// The colour themes `:theme` offers (the files in themes/).
    public static let themes = ["night", "storm", "moon", "day"]

    /// Tab: the command name completed (to the longest prefix its candidates share; a whole one gets a
    /// space), and after `react ` an emoji shortcode (`:thumbsup:` → 👍).
    static func complete(_ field: TextField, _ state: AppState) -> TextField {
        var text = field.text
        let hadSlash = text.hasPrefix("/")
        if hadSlash { text.removeFirst() }
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 {
            let matches = commands.filter { $0.hasPrefix(parts[0].lowercased()) }
            guard let first = matches.first else { return field }
            let completed = matches.count == 1 ? first + " " : sharedStart(matches)
            return TextField((hadSlash ? "/" : "") + completed)
        }
        let command = parts[0].lowercased(), argument = parts[1]
        let slash = hadSlash ? "/" : ""
        // Names: what the command takes (a theme, a session, the open one's name for `:rename`), or a
        // member or contact after `@` (`:post … @`).
        let entry = CommandTable.command(named: command)
        let names = entry?.argumentNames?(state) ?? []
        if !names.isEmpty, let completed = completeName(argument, among: names) { return TextField(slash + command + " " + completed) }
        if let at = argument.lastIndex(of: "@") {
            // "@al" → the display name of a member of the open session or a contact ("who" lists them too).
            let people = (state.sessions.open?.summary?.members ?? []) + state.contacts.map(\.pubkey)
            let candidates = Array(Set(people.map { state.displayName($0) }.filter { $0 != "you" })).sorted()
            let prefix = String(argument[argument.index(after: at)...])
            if let completed = completeName(prefix, among: candidates) {
                return TextField(slash + command + " " + argument[...at] + completed)
            }
        }
        if entry?.completesEmoji == true, argument.hasPrefix(":") {
            // A whole shortcode first (":+1:", ":fire:"), else the only emoji the text names.
            let name = argument.lowercased().replacingOccurrences(of: ":", with: "")
            let exact = emojiChoices.first { (emojiNames[$0] ?? []).first == name }
            let matches = emojiMatches(argument)
            if let emoji = exact ?? (matches.count == 1 ? matches.first : nil) {
                return TextField(slash + command + " " + emoji)
            }
        }
        return field
    }

    /// What Tab could still complete `field` to, when more than one thing (else none).
    static func candidates(_ field: TextField, _ state: AppState) -> [String] {
        var text = field.text
        if text.hasPrefix("/") { text.removeFirst() }
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        func several(_ names: [String], _ typed: String) -> [String] {
            let found = names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
            return found.count > 1 ? found : []
        }
        if parts.count == 1 { return several(commands, parts[0]) }
        let entry = CommandTable.command(named: parts[0]), argument = parts[1]
        if let names = entry?.argumentNames?(state), !names.isEmpty, !several(names, argument).isEmpty { return several(names, argument) }
        if let at = argument.lastIndex(of: "@") {
            let people = (state.sessions.open?.summary?.members ?? []) + state.contacts.map(\.pubkey)
            let names = Array(Set(people.map { state.displayName($0) }.filter { $0 != "you" })).sorted()
            return several(names, String(argument[argument.index(after: at)...])).map { "@" + $0 }
        }
        if entry?.completesEmoji == true, argument.hasPrefix(":") {
            let matches = emojiMatches(argument)
            return matches.count > 1 ? matches.map { e in (emojiNames[e]?.first).map { "\(e) :\($0):" } ?? e } : []
        }
        return []
    }

    /// The name `typed` starts (case-insensitively): the whole one when only one does, else the longest
    /// prefix they share (nil when none, or nothing to add).
    static func completeName(_ typed: String, among names: [String]) -> String? {
        let lower = typed.lowercased()
        let matches = names.filter { $0.lowercased().hasPrefix(lower) }
        guard let first = matches.first else { return nil }
        if matches.count == 1 { return first }
        var prefix = first
        for m in matches.dropFirst() { while !m.lowercased().hasPrefix(prefix.lowercased()) { prefix.removeLast() } }
        return prefix.count > typed.count ? prefix : nil
    }
}
