import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// Identity and account: boot, unlock, create, import, restore, export, switch, log out, delete, wipe.
extension EffectRunner {
    /// Answers as it goes, through `dispatch`, not by returning actions: each boot step must be on
    /// screen while the next one (the scrypt unlock) runs.
    func runAccount(_ effect: AppEffect) async throws {
        switch effect {
        case .boot: await boot(inMemory: false)
        case .onboarding(.continueInMemory): await boot(inMemory: true)
        case .onboarding(.unlock(let typed)):
            guard let pk = pendingUnlock ?? vault.activePubkey() else { dispatch(.onboarding(.identityMissing)); return }
            do {
                // Enter on an empty field asks `passphrase_command`, when there is one.
                var passphrase = try typed.isEmpty ? options.passphraseCommand.map { try PassphraseSource.command($0).read() } ?? "" : typed
                var keyringWords: String?
                if passphrase.isEmpty, let stored = keyringPassphrase(pk, failed: { keyringWords = $0 }) { passphrase = stored }
                if passphrase.isEmpty, let keyringWords { throw VaultError.io(keyringWords + ": type the passphrase.") }
                let key = try vault.unlock(pk, passphrase: passphrase)
                if let open = account, open.key.publicKey == key.publicKey {
                    // Locked with the account left open (`lock_keeps_syncing`): the passphrase was the test.
                    dispatch(.lockLifted)
                    return
                }
                try vault.setActive(pk)
                try await openAccount(key)
            } catch let e as VaultError {
                dispatch(.onboarding(.unlockFailed(ClientError(e))))
            }
        case .lock(let keepsAccountOpen):
            guard !keepsAccountOpen else { return }
            // Everything of the account closes: its tasks, engine and store, and with them its keys.
            let active = account?.key.publicKey.hex ?? vault.activePubkey()
            await closeAccount()
            pendingUnlock = active
        case .onboarding(.createIdentity(let name, let given)):
            do {
                guard let local else { throw StorageError.closed }
                let passphrase = try given ?? environmentPassphrase() ?? { throw VaultError.noPassphrase }()
                let (key, _) = try local.identities.create(name: name, passphrase: passphrase, now: now)
                try await prepareAccount(key)
                dispatch(.onboarding(.identityCreated(info(key, profileName: name, backedUp: false), nsec: RevealedSecret(key.revealNsecBytes()))))
            } catch {
                dispatch(.onboarding(.onboardingFailed(ClientError(error))))
            }
        case .onboarding(.importIdentity(let text, let given)):
            do {
                guard let local else { throw StorageError.closed }
                let passphrase = try given ?? environmentPassphrase() ?? { throw VaultError.noPassphrase }()
                let key = try local.identities.importKey(text, passphrase: passphrase)
                try await openAccount(key)
            } catch {
                dispatch(.onboarding(.onboardingFailed(ClientError(error))))
            }
        case .onboarding(.checkBackup(let path, let backupPassphrase)):
            do {
                let file = Self.expandingTilde(path)
                if backupPassphrase == nil, try BackupActions.needsPassphrase(file) {
                    dispatch(.onboarding(.backupNeedsPassphrase(path: path)))
                } else {
                    let backup = try BackupActions.load(file, passphrase: backupPassphrase)
                    dispatch(.onboarding(.backupChecked(path: path, backupPassphrase: backupPassphrase, npub: backup.secretKey.publicKey.npub)))
                }
            } catch {
                dispatch(.onboarding(.onboardingFailed(ClientError(error))))
            }
        case .onboarding(.restoreBackup(let path, let backupPassphrase, let given)):
            do {
                guard let local else { throw StorageError.closed }
                let backup = try BackupActions.load(Self.expandingTilde(path), passphrase: backupPassphrase)
                let passphrase = try given ?? environmentPassphrase() ?? { throw VaultError.noPassphrase }()
                let (key, _, outcome) = try local.backups.restore(backup, passphrase: passphrase, now: now)
                try await openAccount(key)
                dispatch(.onboarding(.backupRestored(sessionsAdded: outcome.sessionsAdded, postsAdded: outcome.postsAdded)))
            } catch {
                dispatch(.onboarding(.onboardingFailed(ClientError(error))))
            }
        case .settings(.exportBackup(let path, let passphrase)):
            guard let account, let local else { return }
            let vault = self.vault, now = self.now
            run({
                let data = try account.exportBackup(local.backups, format: passphrase == nil ? .ios : .sealed,
                                                    passphrase: passphrase, now: now)
                try BackupActions.write(data, to: Self.expandingTilde(path))
                try vault.setBackedUp(account.me, true)
            }, { [.settings(.backupExported(path: path))] }, failed: { .settings(.backupExportFailed($0)) })
        case .you(.loadIdentities):
            let active = vault.activePubkey()
            dispatch(.you(.identitiesLoaded(try vault.list().map { IdentityEntry(pubkey: $0.pubkey, npub: $0.npub, active: $0.pubkey == active) })))
        case .settings(.changePassphrase(let old, let new)):
            guard let identity else { return }
            let vault = self.vault, dispatch = self.dispatch
            // scrypt twice (open, seal again): off the runner, like the export.
            Task.detached {
                do {
                    try vault.changePassphrase(identity.publicKey.hex, old: old, new: new, logN: NIP49.defaultLogN)
                    dispatch(.settings(.passphraseChangeAnswered(.changed)))
                    if let problem = vault.keyringFollows(identity.publicKey.hex, npub: identity.publicKey.npub, newPassphrase: new) {
                        dispatch(.failed(.unexpected, ClientError(.unexpected, "the keyring kept the old passphrase: \(problem)")))
                    }
                } catch VaultError.wrongPassphrase {
                    dispatch(.settings(.passphraseChangeAnswered(.currentWrong)))
                } catch {
                    dispatch(.settings(.passphraseChangeAnswered(.failed(ClientError(error)))))
                }
            }
        case .settings(.setKeyring(let passphrase)):
            guard let identity else { return }
            let vault = self.vault, dispatch = self.dispatch, pubkey = identity.publicKey.hex, npub = identity.publicKey.npub
            // scrypt and D-Bus (2 s at most): off the runner.
            Task.detached {
                dispatch(.settings(.keyringAnswered(KeyringSwitch.set(vault, pubkey: pubkey, npub: npub, passphrase: passphrase))))
            }
        case .settings(.markKeyBackedUp):
            if let identity { try vault.setBackedUp(identity.publicKey.hex, true) }
        case .settings(.revealSecret):
            if let identity { dispatch(.settings(.secretRevealed(RevealedSecret(identity.revealNsecBytes())))) }
        case .wipe:
            await closeAccount()
            local = nil
            do {
                _ = try Wipe.run(paths)
                dispatch(.wiped)
            } catch {
                dispatch(.failed(.wipe, ClientError(error)))
            }
        case .you(.switchIdentity(let pk)):
            // Nothing of the account being left stays open, running or in memory.
            await closeAccount()
            pendingUnlock = pk
            let passphrase = try? environmentPassphrase()
            if let passphrase, let key = try? vault.unlock(pk, passphrase: passphrase) {
                try vault.setActive(pk)
                try await openAccount(key)
            } else {
                dispatch(.onboarding(.passphraseNeeded(pubkey: pk, npub: (try? PublicKey(hex: pk))?.npub ?? pk)))
                if passphrase != nil { dispatch(.onboarding(.environmentPassphraseRefused)) }
            }
        case .settings(.logout(let clear)):
            let leaving = account
            await closeAccount()
            if let leaving, let local { try leaving.forget(with: local.identities, clearData: clear) }
            dispatch(.loggedOut)
        case .settings(.deleteAccount):
            guard let actions, let leaving = account else { return }
            let dispatch = self.dispatch, now = self.now, relays = self.relays.enabledURLs
            // A task of the account: it ends with it, and closes it once the relays were told.
            startAccountTask { [weak self] _ in
                do {
                    try await actions.announceDeletion(relays: relays, now: now)
                } catch {
                    dispatch(.failed(.deleteAccount, ClientError(error)))
                    return
                }
                await self?.accountDeleted(leaving)
            }
        default:
            assertionFailure("\(effect) is not an account effect")  // `run` routes by area
        }
    }

    /// The relays forgot the account: close it and wipe it here; say what could not be wiped.
    private func accountDeleted(_ leaving: AccountSession) async {
        guard account === leaving else { return }
        await closeAccount()
        var failure: ClientError?
        do {
            if let local { try leaving.forget(with: local.identities, clearData: true) }
        } catch {
            failure = ClientError(error)
        }
        dispatch(.loggedOut)
        if let failure { dispatch(.failed(.forgetDeletedAccount, failure)) }
    }

    func boot(inMemory: Bool) async {
        dispatch(.bootStepReached(.loadingAccount))
        do {
            local = inMemory ? try LocalDevice(inMemoryWith: vault) : try LocalDevice(paths: paths, vault: vault)
            self.inMemory = inMemory
        } catch {
            dispatch(.storeOpenFailed(ClientError(error)))
            return
        }
        dispatch(.bootStepReached(.preparingLocalData))
        // A passphrase command that fails is said on the unlock screen (naming it, never its output).
        var sourceFailure: Error?
        let passphrase: String?
        do { passphrase = try environmentPassphrase() } catch {
            passphrase = nil
            sourceFailure = error
        }
        if passphrase != nil { dispatch(.onboarding(.passphraseInEnvironment)) }
        guard let active = vault.activePubkey() else {
            dispatch(.onboarding(.identityMissing))
            return
        }
        pendingUnlock = active
        // Then the keyring, for an identity that keeps its passphrase there (bounded: 2 s at most).
        var keyringWords: String?
        let fromKeyring = passphrase == nil && sourceFailure == nil ? keyringPassphrase(active, failed: { keyringWords = $0 }) : nil
        if let given = passphrase ?? fromKeyring, let key = try? vault.unlock(active, passphrase: given) {
            do { try await openAccount(key) } catch { dispatch(.storeOpenFailed(ClientError(error))) }
        } else {
            dispatch(.onboarding(.passphraseNeeded(pubkey: active, npub: (try? PublicKey(hex: active))?.npub ?? active)))
            // Say why the prompt is there: the environment's passphrase was tried and did not unlock.
            if passphrase != nil { dispatch(.onboarding(.environmentPassphraseRefused)) }
            if let sourceFailure { dispatch(.onboarding(.unlockFailed(ClientError(sourceFailure)))) }
            if fromKeyring != nil { keyringWords = "the keyring's passphrase did not unlock this key" }
            if let keyringWords { dispatch(.onboarding(.unlockFailed(ClientError(.invalid, keyringWords + ": type the passphrase.")))) }
        }
    }

    /// The keyring's passphrase for `pubkey`, when that identity keeps it there; why not, to `failed`.
    func keyringPassphrase(_ pubkey: Pubkey, failed: (String) -> Void) -> String? {
        guard let npub = (try? PublicKey(hex: pubkey))?.npub else { return nil }
        let (stored, problem) = vault.keyringPassphrase(pubkey, npub: npub)
        if let problem { failed(problem) }
        return stored
    }

    /// `--passphrase-file`, else LINKSTR_PASSPHRASE, else the passphrase command; an empty value counts as none.
    func environmentPassphrase() throws -> String? {
        guard let source = PassphraseSource.resolve(file: options.passphraseFile, command: options.passphraseCommand, prompt: nil) else { return nil }
        let value = try source.read()
        return value.isEmpty ? nil : value
    }

    func prepareAccount(_ key: SecretKey) async throws {
        try await openSession(key)
        dispatch(.bootStepReached(.connectingRelays))
        dispatch(.settings(.relaysChanged(relayRows())))
    }

    /// "~/backups/x.linkstrbackup", as a shell would read it.
    static func expandingTilde(_ path: String) -> String { NSString(string: path).expandingTildeInPath }

    func openAccount(_ key: SecretKey) async throws {
        try await prepareAccount(key)
        dispatch(.bootStepReached(.startingSession))
        let name = try reads?.setting(.profileName) ?? reads?.setting(.profileNamePending)
        dispatch(.identityReady(info(key, profileName: name, backedUp: vault.isBackedUp(key.publicKey.hex)), inMemory: inMemory))
    }

    func info(_ key: SecretKey, profileName: String?, backedUp: Bool) -> IdentityInfo {
        IdentityInfo(pubkey: key.publicKey.hex, npub: key.publicKey.npub, profileName: profileName, backedUp: backedUp,
                     usesKeyring: vault.usesKeyring(key.publicKey.hex))
    }
}
