import LinkstrApp
import LinkstrDomain
import LinkstrStorage

/// Settings' `K`, carried out: the passphrase proved by unlocking, then stored, and the identity marked;
/// or the item removed and the mark taken off.
enum KeyringSwitch {
    static func set(_ vault: IdentityVault, pubkey: Pubkey, npub: String, passphrase: String?) -> KeyringChange {
        do {
            guard let passphrase else {
                try vault.leaveKeyring(pubkey, npub: npub)
                return .off
            }
            try vault.keepInKeyring(pubkey, npub: npub, passphrase: passphrase)
            return .on
        } catch VaultError.wrongPassphrase {
            return .wrongPassphrase
        } catch let failure as Keyring.Failure {
            return .failed(ClientError(.unexpected, failure.description))
        } catch {
            return .failed(ClientError(error))
        }
    }
}
