import Foundation
import LinkstrDomain
#if canImport(Glibc)
import Glibc
#endif

/// A note written in the user's editor: `$VISUAL`, else `$EDITOR`, else `vi`, on a file in a private
/// temporary directory (0700; the file 0600), removed afterwards whatever happened.
enum NoteEditor {
    static func edit(_ note: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, DomainError> {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.trimmingWhitespace().isEmpty } ?? "vi"
        var template = Array((NSTemporaryDirectory() + "/linkstr-note-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return .failure(.message("could not make a private directory for the editor.")) }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o700)
        let file = directory + "/note.txt"
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(.message("could not write the note for the editor.")) }
        let bytes = Array(note.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { return .failure(.message("could not write the note for the editor.")) }
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
