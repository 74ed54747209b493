import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import NostrProtocol

extension ClientError {
    /// What any failure of a use case is, for the front ends: its kind by its type, its words as the
    /// failing layer gave them.
    public init(_ error: any Error) {
        let words = String(describing: error)
        switch error {
        case let e as ClientError:
            self = e
        case let e as PublishError:
            switch e {
            case .noRelaysEnabled, .onlyReadOnly, .offline: self.init(.offline, words)
            case .reconnectTimeout, .timeout: self.init(.timeout, words)
            case .rejected, .tooLarge: self.init(.rejectedByRelays, words)
            }
        case let e as ConnectionError:
            switch e {
            case .timeout: self.init(.timeout, words)
            case .invalidURL: self.init(.invalid, words)
            case .refused, .unresolvable, .upgradeRefused, .tls, .io: self.init(.offline, words)
            }
        case is StorageError, is PrivateFile.Failure, is BoundedRead.Failure:
            self.init(.storage, words)
        case let e as VaultError:
            switch e {
            case .unknownIdentity: self.init(.notFound, words)
            case .wrongPassphrase, .emptyPassphrase, .noPassphrase: self.init(.invalid, words)
            case .corrupt, .crypto, .io: self.init(.storage, words)
            }
        case let e as AccountActions.RequestError:
            self.init(e == .noSuchSession ? .notFound : .invalid, words)
        case let e as RelayList.Failure:
            self.init(e == .notInList ? .notFound : .invalid, words)
        case let e as DomainError:
            let missing = e == SendRuleError.unknownSession || e == SendRuleError.unknownPost
            self.init(missing ? .notFound : .invalid, words)
        case is PayloadError, is MessageLimits.TooLarge, is BackupError, is KeyError, is NIP19Error, is NIP49Error,
             is Bech32Error, is EventValidationError:
            self.init(.invalid, words)
        default:
            self.init(.unexpected, words)
        }
    }
}
