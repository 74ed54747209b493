import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
#if canImport(Glibc)
import Glibc
#endif

/// A note written in the user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, on a file in a private
/// temporary directory (0700; the file 0600), removed afterwards whatever happened.
enum NoteEditor {
    /// The note as the editor left it, and a warning when the temporary file could not be removed
    /// (it may hold private text: the user is told where it is).
    static func edit(_ note: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result<(text: String, warning: String?), DomainError> {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.trimmingWhitespace().isEmpty } ?? "vi"
        var template = Array((NSTemporaryDirectory() + "/linkstr-note-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return .failure(.message("could not make a private directory for the editor.")) }
        let directory = String(cString: made)
        chmod(directory, 0o700)
        let result = run(editor, note: note, in: directory)
        do { try FileManager.default.removeItem(atPath: directory) } catch {
            let warning = "the editor's temporary copy could not be removed: delete \(directory) by hand."
            switch result {
            case .success(let text): return .success((text, warning))
            case .failure(let why): return .failure(.message(why.description + " " + warning))
            }
        }
        return result.map { ($0, nil) }
    }

    private static func run(_ editor: String, note: String, in directory: String) -> Result<String, DomainError> {
        let file = directory + "/note.txt"
        do { try PrivateFile.create(Data(note.utf8), at: file) } catch { return .failure(.message("could not write the note for the editor.")) }
        // Through the shell: `$EDITOR` may carry arguments ("code -w", "nano -R").
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", editor + " \"$1\"", "sh", file]
        do { try p.run() } catch { return .failure(.message("could not start the editor (\(DisplayText.singleLine(editor))).")) }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            return .failure(.message("the editor (\(DisplayText.singleLine(editor))) exited with status \(p.terminationStatus): the note is as it was."))
        }
        guard let data = FileManager.default.contents(atPath: file) else { return .failure(.message("the note could not be read back.")) }
        guard data.count <= 1 << 20 else { return .failure(.message("the note is over 1 MiB, the most a field holds: it is as it was.")) }
        return .success(String(decoding: data, as: UTF8.self))
    }
}
