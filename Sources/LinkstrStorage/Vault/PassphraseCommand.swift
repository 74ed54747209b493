import Foundation
import LinkstrDomain
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `passphrase_command` (config.toml) and `--passphrase-command`: a program that prints the passphrase,
/// as aerc's `source-cred-cmd` and senpai's `password-cmd` do (`pass show linkstr`, `secret-tool lookup
/// app linkstr`, a password manager's CLI). Run without a shell, its words as written (a string is split
/// at spaces and tabs; quotes group words: `"my vault"`), standard input from /dev/null, standard error
/// dropped. Its first line of output is the passphrase. Whatever goes wrong is said naming the program,
/// never with what it printed (that may be the passphrase, or part of it).
public struct PassphraseCommand: Equatable, Sendable {
    public let words: [String]
    /// How long it may take (a keyring prompt the user answers takes a few seconds).
    public static let limit: TimeInterval = 5

    public init?(words: [String]) {
        guard let first = words.first, !first.isEmpty else { return nil }
        self.words = words
    }

    /// A command line split into words: spaces and tabs separate, single or double quotes group (no
    /// escapes, no variables: there is no shell). nil for an unclosed quote or no words.
    public init?(line: String) {
        var words = [String](), current = "", quote: Character?, started = false
        for ch in line {
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch
                started = true
            } else if ch == " " || ch == "\t" {
                if started || !current.isEmpty { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(ch)
            }
        }
        guard quote == nil else { return nil }
        if started || !current.isEmpty { words.append(current) }
        self.init(words: words)
    }

    /// The program's name as said in errors.
    var name: String { (words[0] as NSString).lastPathComponent }

    /// Runs it; the first line of its output.
    func run() throws(VaultError) -> String {
        guard let program = ProgramLookup.find(words[0]) else { throw .io("the passphrase command \(name) was not found.") }
        let process = Process()
        process.executableURL = program
        process.arguments = Array(words.dropFirst())
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw .io("the passphrase command \(name) did not start.") }
        // Read on a thread of its own, bounded, while the deadline is watched here.
        let collected = Mutex<Result<[UInt8], BoundedRead.Failure>?>(nil)
        let reader = Thread {
            let fd = out.fileHandleForReading.fileDescriptor
            let read = Result { () throws(BoundedRead.Failure) in try BoundedRead.descriptor(fd, limit: InputLimits.passphraseFile, what: "its output") }
            collected.withLock { $0 = read }
        }
        reader.start()
        // Done when it exited and its output closed (a child it left behind may hold that open).
        let deadline = Date().addingTimeInterval(Self.limit)
        while process.isRunning || !reader.isFinished, Date() < deadline { usleep(10_000) }
        if process.isRunning || !reader.isFinished {
            // With what it started (`ChildProcess`).
            ChildProcess.kill(process.processIdentifier)
            process.waitUntilExit()
            throw .io("the passphrase command \(name) did not answer within \(Int(Self.limit)) s.")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw .io("the passphrase command \(name) failed (exit status \(process.terminationStatus)).")
        }
        guard case .success(let bytes)? = collected.withLock({ $0 }) else {
            throw .io("the passphrase command \(name) printed more than a passphrase.")
        }
        let line = String(decoding: BoundedRead.firstLine(bytes), as: UTF8.self)
        guard !line.isEmpty else { throw .io("the passphrase command \(name) printed no passphrase.") }
        return line
    }
}
