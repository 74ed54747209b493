import LinkstrDomain

/// Tab again on the `:` command line, once candidates are listed, takes the next one in turn, as zsh and
/// vim do (`:re` Tab listed them and a second Tab did nothing). The listed candidates stay on
/// screen while cycling; any other key ends it.
extension AppReducer {
    /// The field with the word being completed replaced by the candidate after the one it holds (the
    /// first, when it holds the common prefix); nil when the listed candidates are not for that word.
    static func cycled(_ field: TextField, through candidates: [String]) -> TextField? {
        guard !candidates.isEmpty else { return nil }
        var text = field.text
        let slash = text.hasPrefix("/") ? "/" : ""
        if !slash.isEmpty { text.removeFirst() }
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        // The word a candidate replaces: the command's name, the argument, or the name after its last `@`.
        let head: String, word: String
        if parts.count == 1 {
            (head, word) = ("", parts[0].trimmingWhitespace())
        } else if candidates.allSatisfy({ $0.hasPrefix("@") }), let at = parts[1].lastIndex(of: "@") {
            (head, word) = (parts[0] + " " + String(parts[1][..<at]), String(parts[1][at...]).trimmingWhitespace())
        } else if candidates.contains(where: { $0.contains(" :") }) {
            return nil  // emoji with their shortcodes: picked from the list, not cycled
        } else {
            (head, word) = (parts[0] + " ", parts[1].trimmingWhitespace())
        }
        // Cycling goes on from a candidate, or starts from what the listing Tab left (their shared start);
        // anything else typed since is completed afresh.
        let lower = word.lowercased()
        let next: Int
        if let current = candidates.firstIndex(where: { $0.lowercased() == lower }) {
            next = (current + 1) % candidates.count
        } else if lower == sharedStart(candidates.map { $0.lowercased() }) {
            next = 0
        } else {
            return nil
        }
        return TextField(slash + head + candidates[next])
    }

    /// The longest start every word shares.
    static func sharedStart(_ words: [String]) -> String {
        guard var prefix = words.first else { return "" }
        for w in words.dropFirst() { while !w.hasPrefix(prefix) { prefix.removeLast() } }
        return prefix
    }
}
