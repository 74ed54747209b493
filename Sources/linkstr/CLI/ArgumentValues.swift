import ArgumentParser
import Foundation
import LinkstrDomain
import LinkstrLogging
import LinkstrStorage
import Logging

/// Argument values that need more than a type: validated once, with an error that names the value.
enum Seconds {
    static let maximum: Double = 86_400

    /// A positive, finite number of seconds (a day at most): `nan`, `inf` and `1e300` would overflow the
    /// deadline arithmetic, and a negative or zero wait means nothing.
    static func parse(_ text: String) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("the timeout must be a number of seconds (got \(quoted(text))).")
        }
        guard value.isFinite, value > 0, value <= maximum else {
            throw ValidationError("the timeout must be more than 0 and at most \(Int(maximum)) seconds (got \(quoted(text))).")
        }
        return value
    }

    static func quoted(_ text: String) -> String { "\"" + String(text.prefix(40)).filter { !$0.isNewline } + "\"" }
}

/// A count such as `--limit`: a whole number, 0 or more. Read unconditionally, so that `--limit -1`
/// says what is wrong instead of "Missing value" (the parser took -1 for an option).
enum Count {
    static func parse(_ text: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw ValidationError("the limit must be a whole number, 0 or more (got \(Seconds.quoted(text))).")
        }
        return value
    }
}

/// `--note` or `--note-file FILE` (`-` for standard input), read up to `InputLimits.noteFile`.
enum NoteInput {
    static func read(note: String?, file: String?) throws -> String? {
        switch (note, file) {
        case (.some, .some): throw CLIError("give the note with --note or with --note-file, not both.", .usage)
        case (let note, nil): return note
        case (nil, let path?):
            let bytes: [UInt8]
            do throws(BoundedRead.Failure) {
                bytes = path == "-" ? try BoundedRead.standardInput(limit: InputLimits.noteFile, what: "the note on standard input")
                                    : try BoundedRead.file(path, limit: InputLimits.noteFile, what: "the note file")
            } catch { throw CLIError(error.description, .invalidInput) }
            guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIError("the note file is not UTF-8 text.", .invalidInput) }
            // A file usually ends with one line break that is not part of the note.
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        }
    }
}

extension PubkeyNormalizer {
    /// A key argument, normalized to hex, or an error that says why it is not a key.
    static func cliKey(_ text: String) throws -> Pubkey {
        switch userInput(text) {
        case .success(let key): return key
        case .failure(let why): throw CLIError(why.description, .invalidInput)
        }
    }
}

/// `--log-level`: one of swift-log's levels, by name.
struct LogLevelArgument: Sendable {
    let level: Logger.Level
    init(_ level: Logger.Level) { self.level = level }

    static func parse(_ text: String) throws -> LogLevelArgument {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ValidationError("the log level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")) (got \(Seconds.quoted(text))).")
        }
        return LogLevelArgument(level)
    }
}

extension GlobalOptions {
    /// Logging to `linkstr.log` in the state directory, at `--log-level` (or LINKSTR_LOG_LEVEL).
    /// Nothing is created in a directory linkstr will refuse (the command then says why).
    func startLogging(_ paths: DataPaths) {
        guard DataFiles.isAdoptable(paths) else { return }
        let fromEnvironment = ProcessInfo.processInfo.environment["LINKSTR_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
        LinkstrLogging.bootstrap(stateDirectory: paths.state, level: logLevel.level == .info ? (fromEnvironment ?? .info) : logLevel.level)
    }
}
