/// Which session a name someone typed means (`linkstr post Films …`): its id, else its whole name, else
/// the one session whose name starts so (case and accents as typed are compared folded). Several
/// starting so are listed back, so that the user picks; a typo never posts into a guess.
public enum SessionChoice: Equatable, Sendable {
    case session(String)
    case ambiguous([(id: String, name: String)])
    case none

    public static func == (a: SessionChoice, b: SessionChoice) -> Bool {
        switch (a, b) {
        case (.session(let x), .session(let y)): return x == y
        case (.none, .none): return true
        case (.ambiguous(let x), .ambiguous(let y)): return x.map(\.id) == y.map(\.id)
        default: return false
        }
    }

    public static func choose(_ typed: String, among sessions: [(id: String, name: String)]) -> SessionChoice {
        if sessions.contains(where: { $0.id == typed }) { return .session(typed) }
        let wanted = fold(typed)
        guard !wanted.isEmpty else { return .none }
        let named = sessions.filter { fold($0.name) == wanted }
        if named.count == 1 { return .session(named[0].id) }
        let starting = named.count > 1 ? named : sessions.filter { fold($0.name).hasPrefix(wanted) }
        switch starting.count {
        case 0: return .none
        case 1: return .session(starting[0].id)
        default: return .ambiguous(starting.sorted { ($0.name, $0.id) < ($1.name, $1.id) })
        }
    }

    static func fold(_ s: String) -> String {
        DisplayText.singleLine(s).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingWhitespace()
    }
}
