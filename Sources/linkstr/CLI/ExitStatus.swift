import ArgumentParser
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol

/// The exit codes a script can tell apart, after sysexits(3); `linkstr(1)` and the
/// README list them. Anything not named here is 1; a mistyped command line is 64 (ArgumentParser).
enum ExitStatus: Int32, CaseIterable {
    case failure = 1
    case usage = 64
    /// A key, URL, emoji, passphrase, file or argument that is not valid.
    case invalidInput = 65
    /// No such session, post, identity or file.
    case notFound = 66
    /// Another linkstr (the app, usually) holds the data directory.
    case locked = 69
    /// This device's storage: the disk is full, the directory read-only, the data damaged.
    case storage = 74
    /// Relays could not be reached, or did not answer in time: try again later.
    case relaysUnavailable = 75
    /// Relays answered and refused.
    case refusedByRelays = 76

    /// The words `linkstr(1)` gives each.
    var meaning: String {
        switch self {
        case .failure: return "any other failure"
        case .usage: return "the command line is not valid (unknown command, flag or argument; a missing --yes)"
        case .invalidInput: return "invalid input: a key, URL, emoji, passphrase, file or value"
        case .notFound: return "not found: no such session, post, identity or file"
        case .locked: return "the data directory is in use by another linkstr (quit the app, or wait)"
        case .storage: return "local storage: the disk is full, the directory is read-only, or the data is damaged"
        case .relaysUnavailable: return "relays unavailable or too slow: nothing was lost, try again later"
        case .refusedByRelays: return "relays answered and refused (their words are on stderr)"
        }
    }

    /// For `linkstr --help` and the EXIT STATUS section of linkstr(1) (scripts/lib/manpages.py finds it).
    static var documentation: String {
        "Exit status: 0 on success. " + allCases.map { "\($0.rawValue): \($0.meaning)." }.joined(separator: " ")
    }

    static func of(_ error: any Error) -> ExitStatus {
        switch error {
        case let e as CLIError: return e.status
        case let e as DomainError:
            return [SendRuleError.unknownSession, SendRuleError.unknownPost].contains(e) ? .notFound : .invalidInput
        case is KeyError, is NIP19Error, is Bech32Error, is BackupError, is BoundedRead.Failure: return .invalidInput
        case let e as VaultError:
            switch e {
            case .unknownIdentity: return .notFound
            case .wrongPassphrase, .emptyPassphrase, .noPassphrase: return .invalidInput
            case .corrupt, .crypto, .io: return .storage
            }
        case let e as StorageError:
            if case .locked = e { return .locked }
            return .storage
        case let e as PublishError:
            switch e {
            case .rejected, .tooLarge, .onlyReadOnly: return .refusedByRelays
            case .offline, .reconnectTimeout, .timeout: return .relaysUnavailable
            case .noRelaysEnabled: return .invalidInput
            }
        case is ConnectionError: return .relaysUnavailable
        case let e as SendQueueError:
            switch e {
            case .noSuchItem: return .notFound
            case .full: return .storage
            case .inFlight: return .failure
            }
        default: return .failure
        }
    }
}

extension CLIError {
    init(_ message: String, _ status: ExitStatus) {
        self.init(message)
        self.status = status
    }
}
