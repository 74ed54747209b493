import CSecret
import Foundation
import LinkstrDomain
import Synchronization

/// The identity passphrase in the user's Secret Service keyring (GNOME Keyring, KWallet, KeePassXC) through
/// libsecret: one item per identity in the default collection, labelled "linkstr: npub1…", its attributes
/// the app and the npub (never the key). Every call is bounded: a keyring that is locked (and would wait
/// for a prompt), hangs or is slow is abandoned after `deadline` and said to be so; nothing waits longer.
public enum Keyring {
    public static let deadline: Double = 2
    /// What is said when an identity marked as keeping its passphrase there finds no item.
    public static let noItem = "the keyring holds no passphrase for this identity"

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The keyring answered with an error (absent, locked and refusing, no session bus…).
        case refused(String)
        case timedOut
        public var description: String {
            switch self {
            case .refused(let why): return "the keyring refused: \(why)"
            case .timedOut: return "the keyring did not answer within \(Int(Keyring.deadline)) s"
            }
        }
    }

    /// "linkstr: npub1abcd…wxyz": what the keyring's own tools show.
    public static func label(npub: String) -> String { "linkstr: \(npub.prefix(12))…\(npub.suffix(6))" }

    public static func store(npub: String, passphrase: String) throws(Failure) {
        let label = label(npub: npub)
        let outcome: Result<Void, Failure> = try bounded {
            var message: UnsafeMutablePointer<CChar>?
            let ok = passphrase.withCString { sw_secret_store(npub, label, $0, &message) }
            return ok == 1 ? .success(()) : .failure(.refused(words(message)))
        }
        try outcome.get()
    }

    /// The stored passphrase, nil when there is none for `npub`.
    public static func lookup(npub: String) throws(Failure) -> String? {
        let outcome: Result<String?, Failure> = try bounded {
            var message: UnsafeMutablePointer<CChar>?
            guard let found = sw_secret_lookup(npub, &message) else {
                return message == nil ? .success(nil) : .failure(.refused(words(message)))
            }
            defer { sw_secret_free_password(found) }
            return .success(String(cString: found))
        }
        return try outcome.get()
    }

    /// Removes the item; false when there was none.
    @discardableResult
    public static func remove(npub: String) throws(Failure) -> Bool {
        let outcome: Result<Bool, Failure> = try bounded {
            var message: UnsafeMutablePointer<CChar>?
            let removed = sw_secret_clear(npub, &message)
            return removed < 0 ? .failure(.refused(words(message))) : .success(removed == 1)
        }
        return try outcome.get()
    }

    /// The libsecret message, freed, in one line.
    private static func words(_ message: UnsafeMutablePointer<CChar>?) -> String {
        guard let message else { return "no reason given" }
        defer { sw_secret_free_message(message) }
        return String(cString: message).split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `work` on a thread of its own, waited for `deadline` seconds at most (a blocked D-Bus call cannot be
    /// cancelled: the thread is left to finish, and what it answers then is dropped).
    private static func bounded<T: Sendable>(_ work: @escaping @Sendable () -> T) throws(Failure) -> T {
        let answer = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = work()
            answer.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + deadline) == .success, let value = answer.withLock({ $0 }) else { throw .timedOut }
        return value
    }
}

extension IdentityVault {
    /// `identity keyring on`, Settings' K: `passphrase` proved by unlocking (a wrong one in the keyring
    /// would fail every start), then stored, and the identity marked as keeping it there. Throws
    /// `VaultError.wrongPassphrase` or a `Keyring.Failure`.
    public func keepInKeyring(_ pubkey: Pubkey, npub: String, passphrase: String) throws {
        _ = try unlock(pubkey, passphrase: passphrase)
        try Keyring.store(npub: npub, passphrase: passphrase)
        try setUsesKeyring(pubkey, true)
    }

    /// `identity keyring off`, K again: the item removed and the mark taken off; false when there was no item.
    @discardableResult
    public func leaveKeyring(_ pubkey: Pubkey, npub: String) throws -> Bool {
        let removed = try Keyring.remove(npub: npub)
        try setUsesKeyring(pubkey, false)
        return removed
    }

    /// The passphrase the keyring keeps for `pubkey`; nil for an identity that does not keep it there, or
    /// with `problem` saying why the keyring could not give it.
    public func keyringPassphrase(_ pubkey: Pubkey, npub: String) -> (passphrase: String?, problem: String?) {
        guard usesKeyring(pubkey) else { return (nil, nil) }
        do throws(Keyring.Failure) {
            if let stored = try Keyring.lookup(npub: npub) { return (stored, nil) }
            return (nil, Keyring.noItem)
        } catch {
            return (nil, error.description)
        }
    }

    /// After a passphrase change: the keyring's item holds the new one, if the identity keeps it there.
    /// When that fails the keyring is no longer used for it (an old passphrase there would fail every
    /// start); the words say so, nil when all is well.
    public func keyringFollows(_ pubkey: Pubkey, npub: String, newPassphrase: String) -> String? {
        guard usesKeyring(pubkey) else { return nil }
        do throws(Keyring.Failure) {
            try Keyring.store(npub: npub, passphrase: newPassphrase)
            return nil
        } catch {
            let why = error.description
            do { try setUsesKeyring(pubkey, false) } catch {
                return "\(why), and the keyring could not be turned off (\(error.description)): run `linkstr identity keyring on`."
            }
            return "\(why): the keyring is off for this identity now; `linkstr identity keyring on` puts the new passphrase there."
        }
    }

    /// Logging out: the identity's keyring item goes with its key file (best effort: the words say what failed).
    public func forgetKeyring(_ pubkey: Pubkey, npub: String) -> String? {
        guard usesKeyring(pubkey) else { return nil }
        var problem: String?
        do throws(Keyring.Failure) { try Keyring.remove(npub: npub) } catch { problem = error.description }
        do { try setUsesKeyring(pubkey, false) } catch { problem = (problem.map { $0 + "; " } ?? "") + error.description }
        return problem
    }
}
