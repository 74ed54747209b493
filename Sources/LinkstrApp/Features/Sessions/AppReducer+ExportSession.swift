import LinkstrDomain

/// `:export-session PATH` (the CLI's `linkstr export`): the open or selected session written out in
/// plaintext, as Markdown, HTML or JSON by the file's extension; an existing file is replaced only after
/// a yes; where it went is said.
extension AppReducer {
    static func exportSessionCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        withSession(&state, input) { state, row in
            let path = input.argument
            guard !path.isEmpty else {
                state.status = StatusLine("usage: :export-session PATH (.md, .html or .json)", .error)
                return []
            }
            state.status = StatusLine("exporting \(DisplayText.singleLine(row.name))…")
            return [.sessions(.exportSession(sessionID: row.id, path: path, replacing: false))]
        }
    }

    /// The export answered: written, or the file exists (asked about), or why not.
    static func sessionExportAnswered(_ state: inout AppState, _ outcome: SessionExportOutcome) -> [AppEffect] {
        switch outcome {
        case .written(let path, let posts):
            state.status = StatusLine("wrote \(posts) post\(posts == 1 ? "" : "s") to \(DisplayText.singleLine(path)) (plaintext: not encrypted).", .success)
        case .exists(let sessionID, let path):
            state.status = nil
            state.overlay = .confirm(Confirmation(.replaceExport(sessionID: sessionID, path: path),
                                                  "\(DisplayText.singleLine(path)) exists: replace it? (y/n)"))
        case .failed(let why):
            state.status = StatusLine(DisplayText.singleLine(why), .error)
        }
        return []
    }
}

/// How `:export-session` ended.
public enum SessionExportOutcome: Equatable, Sendable {
    case written(path: String, posts: Int)
    case exists(sessionID: String, path: String)
    case failed(String)
}
