import LinkstrApp
import LinkstrDomain
import NostrProtocol
import XCTest

/// Boot, recovery, unlock, onboarding (create with backup, import) and quitting.
final class LifecycleReducerTests: XCTestCase {
    let size = ScreenSize(columns: 80, rows: 24)

    func testBootShowsEachStepThenMainOnceTheIdentityIsReady() {
        var h = ReducerHarness()
        h.send(.started(now: 500, size: size), [.boot]) { $0.now = 500; $0.screen = self.size; $0.phase = .booting(.loadingAccount) }
        for step in AppState.BootStep.allCases {
            h.send(.bootStepReached(step)) { $0.phase = .booting(step) }
        }
        h.send(.identityReady(Fixture.meInfo, inMemory: false), [.sessions(.loadSessions(.active)), .you(.loadContacts), .you(.loadIdentities), .sessions(.loadDrafts), .loadLocalPreferences, .startSync]) {
            $0.identity = Fixture.meInfo
            $0.phase = .main
            $0.pane = .sessions
        }
        // A boot step that arrives late never leaves the main screen.
        h.send(.bootStepReached(.connectingRelays))
    }

    func testRecoveryScreenRetriesOrContinuesInMemory() {
        var h = ReducerHarness()
        h.send(.started(now: 1, size: size), [.boot]) { $0.now = 1; $0.screen = self.size }
        h.send(.storeOpenFailed(ClientError(.storage, "database disk image is malformed"))) { $0.phase = .recovery(error: "database disk image is malformed") }
        h.send(.keyPressed(.char("x")))
        h.send(.keyPressed(.char("r")), [.boot]) { $0.phase = .booting(.loadingAccount) }
        h.send(.storeOpenFailed(ClientError(.storage, "locked"))) { $0.phase = .recovery(error: "locked") }
        h.send(.keyPressed(.char("m")), [.onboarding(.continueInMemory)]) { $0.phase = .booting(.preparingLocalData) }
        h.send(.identityReady(Fixture.meInfo, inMemory: true), [.sessions(.loadSessions(.active)), .you(.loadContacts), .you(.loadIdentities), .sessions(.loadDrafts), .loadLocalPreferences, .startSync]) {
            $0.identity = Fixture.meInfo
            $0.inMemory = true
            $0.phase = .main
            $0.status = StatusLine("running in memory: nothing is saved this time", .error)
        }
    }

    func testUnlockTypesWithoutEchoAndClearsTheFieldOnAWrongPassphrase() {
        var h = ReducerHarness()
        h.send(.onboarding(.passphraseNeeded(pubkey: Fixture.me, npub: "npub1me"))) { $0.phase = .unlock(UnlockState(pubkey: Fixture.me, npub: "npub1me")) }
        h.type("hunter2") {
            var u = UnlockState(pubkey: Fixture.me, npub: "npub1me")
            u.passphrase = TextField("hunter2")
            $0.phase = .unlock(u)
        }
        h.send(.keyPressed(.backspace)) {
            var u = UnlockState(pubkey: Fixture.me, npub: "npub1me")
            u.passphrase = TextField("hunter")
            $0.phase = .unlock(u)
        }
        h.send(.keyPressed(.enter), [.onboarding(.unlock(passphrase: "hunter"))]) {
            var u = UnlockState(pubkey: Fixture.me, npub: "npub1me")
            u.passphrase = TextField("hunter")
            u.busy = true
            $0.phase = .unlock(u)
        }
        // While busy, keys do nothing.
        h.send(.keyPressed(.char("z")))
        h.send(.onboarding(.unlockFailed(ClientError(.invalid, "wrong passphrase.")))) {
            var u = UnlockState(pubkey: Fixture.me, npub: "npub1me")
            u.error = "wrong passphrase."
            $0.phase = .unlock(u)
        }
        h.send(.textPasted("pasted secret\nsecond line")) {
            var u = UnlockState(pubkey: Fixture.me, npub: "npub1me")
            u.error = "wrong passphrase."
            u.passphrase = TextField("pasted secret")
            $0.phase = .unlock(u)
        }
        h.send(.keyPressed(.escape), [.quit])
    }

    func testCreateAccountWithNameMatchingPassphrasesAndTheBackupStep() {
        var h = ReducerHarness()
        h.send(.onboarding(.identityMissing)) { $0.phase = .onboarding(OnboardingState()) }
        h.send(.keyPressed(.down)) {
            var o = OnboardingState(); o.step = .choose(selection: 1); $0.phase = .onboarding(o)
        }
        h.send(.keyPressed(.up)) { $0.phase = .onboarding(OnboardingState()) }
        h.send(.keyPressed(.enter)) {
            var o = OnboardingState(); o.step = .createName(TextField()); $0.phase = .onboarding(o)
        }
        h.type("Ann") {
            var o = OnboardingState(); o.step = .createName(TextField("Ann")); $0.phase = .onboarding(o)
        }
        var o = OnboardingState()
        o.pendingName = "Ann"
        o.step = .passphrase(TextField(), confirm: TextField(), focusConfirm: false)
        h.send(.keyPressed(.enter)) { [o] in $0.phase = .onboarding(o) }
        // An empty passphrase is refused with a reason, and the focus stays where it can be typed (issue 33
        // item 8: it moved on to "again" and was trapped there).
        h.send(.keyPressed(.enter)) { [o] in
            var x = o; x.error = "choose a passphrase: it protects your key on this device."; $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.tab)) { [o] in
            var x = o; x.error = "choose a passphrase: it protects your key on this device."; $0.phase = .onboarding(x)
        }
        // Esc goes back to the name, as typed (it went back to the start and lost it).
        h.send(.keyPressed(.escape)) { [o] in
            var x = o; x.step = .createName(TextField("Ann")); $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.ctrl("u"))) { [o] in
            var x = o; x.step = .createName(TextField()); $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter)) {
            var x = OnboardingState(); x.step = .passphrase(TextField(), confirm: TextField(), focusConfirm: false); $0.phase = .onboarding(x)
        }
        h.type("pass word one") {
            var x = OnboardingState(); x.step = .passphrase(TextField("pass word one"), confirm: TextField(), focusConfirm: false); $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.tab)) {
            var x = OnboardingState(); x.step = .passphrase(TextField("pass word one"), confirm: TextField(), focusConfirm: true); $0.phase = .onboarding(x)
        }
        h.type("pass word two") {
            var x = OnboardingState(); x.step = .passphrase(TextField("pass word one"), confirm: TextField("pass word two"), focusConfirm: true); $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter)) {
            var x = OnboardingState(); x.step = .passphrase(TextField("pass word one"), confirm: TextField(), focusConfirm: true)
            x.error = "the passphrases do not match."
            $0.phase = .onboarding(x)
        }
        h.type("pass word one") {
            var x = OnboardingState(); x.step = .passphrase(TextField("pass word one"), confirm: TextField("pass word one"), focusConfirm: true); $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter), [.onboarding(.createIdentity(name: nil, passphrase: "pass word one"))]) {
            var x = OnboardingState(); x.step = .passphrase(TextField("pass word one"), confirm: TextField("pass word one"), focusConfirm: true)
            x.busy = true
            $0.phase = .onboarding(x)
        }
        let info = IdentityInfo(pubkey: Fixture.me, npub: "npub1me", profileName: nil, backedUp: false)
        let secret = RevealedSecret(SecretBytes(copying: Array("nsec1secret".utf8)))
        h.send(.onboarding(.identityCreated(info, nsec: secret))) {
            $0.identity = info
            var x = OnboardingState(); x.step = .backup(revealed: nil); x.secretToBackUp = secret
            $0.phase = .onboarding(x)
        }
        // The key shows only on an explicit key press, and hides again.
        h.send(.keyPressed(.char("r"))) {
            var x = OnboardingState(); x.step = .backup(revealed: secret); x.secretToBackUp = secret
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.char("y")), [.settings(.copySecret(secret))])
        var backed = info
        backed.backedUp = true
        // The key was shown: that counts as a backup, remembered on disk.
        h.send(.keyPressed(.enter), [.settings(.markKeyBackedUp), .sessions(.loadSessions(.active)), .you(.loadContacts), .you(.loadIdentities), .sessions(.loadDrafts), .loadLocalPreferences, .startSync]) {
            $0.identity = backed
            $0.phase = .main
        }
    }

    func testBackupLaterLeavesTheReminderFlag() {
        var h = ReducerHarness()
        let info = IdentityInfo(pubkey: Fixture.me, npub: "npub1me", profileName: "Ann", backedUp: false)
        let secret = RevealedSecret(SecretBytes(copying: Array("nsec1secret".utf8)))
        h.send(.onboarding(.identityCreated(info, nsec: secret))) {
            $0.identity = info
            var x = OnboardingState(); x.step = .backup(revealed: nil); x.secretToBackUp = secret
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.char("l")), [.sessions(.loadSessions(.active)), .you(.loadContacts), .you(.loadIdentities), .sessions(.loadDrafts), .loadLocalPreferences, .startSync]) {
            $0.phase = .main
        }
        XCTAssertEqual(h.state.identity?.backedUp, false)
    }

    func testImportGivesThePreciseErrorBeforeAskingForAPassphrase() throws {
        var h = ReducerHarness(); h.send(.onboarding(.identityMissing)) { $0.phase = .onboarding(OnboardingState()) }
        h.send(.keyPressed(.char("i"))) {
            var x = OnboardingState(); x.step = .importKey(TextField()); $0.phase = .onboarding(x)
        }
        let npub = try PublicKey(hex: Fixture.bob).npub
        h.send(.textPasted("  \(npub)\n")) {
            var x = OnboardingState(); x.step = .importKey(TextField(npub)); $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter)) {
            var x = OnboardingState(); x.step = .importKey(TextField(npub))
            x.error = "that is an npub, not a secret key."
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.ctrl("u"))) {
            var x = OnboardingState(); x.step = .importKey(TextField()); $0.phase = .onboarding(x)
        }
        let nsec = SecretKey.generate().revealNsec()
        h.send(.textPasted(nsec)) {
            var x = OnboardingState(); x.step = .importKey(TextField(nsec)); $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter)) {
            var x = OnboardingState(); x.pendingImport = nsec
            x.step = .passphrase(TextField(), confirm: TextField(), focusConfirm: false)
            $0.phase = .onboarding(x)
        }
        h.type("a long passphrase") {
            var x = OnboardingState(); x.pendingImport = nsec
            x.step = .passphrase(TextField("a long passphrase"), confirm: TextField(), focusConfirm: false)
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter)) {
            var x = OnboardingState(); x.pendingImport = nsec
            x.step = .passphrase(TextField("a long passphrase"), confirm: TextField(), focusConfirm: true)
            $0.phase = .onboarding(x)
        }
        h.type("a long passphrase") {
            var x = OnboardingState(); x.pendingImport = nsec
            x.step = .passphrase(TextField("a long passphrase"), confirm: TextField("a long passphrase"), focusConfirm: true)
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter), [.onboarding(.importIdentity(key: nsec, passphrase: "a long passphrase"))]) {
            var x = OnboardingState(); x.pendingImport = nsec; x.busy = true
            x.step = .passphrase(TextField("a long passphrase"), confirm: TextField("a long passphrase"), focusConfirm: true)
            $0.phase = .onboarding(x)
        }
        h.send(.onboarding(.onboardingFailed(ClientError(.invalid, "wrong passphrase.")))) {
            var x = OnboardingState(); x.pendingImport = nsec; x.error = "wrong passphrase."
            x.step = .passphrase(TextField("a long passphrase"), confirm: TextField("a long passphrase"), focusConfirm: true)
            $0.phase = .onboarding(x)
        }
    }

    /// wire 2026 §8: restore at onboarding. The file is checked first (a sealed one with its passphrase),
    /// so a broken backup or a wrong passphrase is said before anything else is asked; then the
    /// passphrase for the key here. A refusal says why and keeps the step.
    func testRestoringASealedBackupAsksForBothPassphrases() {
        var h = ReducerHarness(); h.send(.onboarding(.identityMissing)) { $0.phase = .onboarding(OnboardingState()) }
        h.send(.keyPressed(.down)) { var x = OnboardingState(); x.step = .choose(selection: 1); $0.phase = .onboarding(x) }
        h.send(.keyPressed(.down)) { var x = OnboardingState(); x.step = .choose(selection: 2); $0.phase = .onboarding(x) }
        h.send(.keyPressed(.down)) { var x = OnboardingState(); x.step = .choose(selection: 2); $0.phase = .onboarding(x) }
        h.send(.keyPressed(.enter)) { var x = OnboardingState(); x.step = .restoreFile(TextField()); $0.phase = .onboarding(x) }
        h.send(.keyPressed(.enter)) {
            var x = OnboardingState(); x.step = .restoreFile(TextField()); x.error = "type the path of a .linkstrbackup file."; $0.phase = .onboarding(x)
        }
        let path = "~/b.linkstrbackup"
        h.send(.textPasted(" ~/b.linkstrbackup\n")) { var x = OnboardingState(); x.step = .restoreFile(TextField(path)); $0.phase = .onboarding(x) }
        h.send(.keyPressed(.enter), [.onboarding(.checkBackup(path: path, backupPassphrase: nil))]) {
            var x = OnboardingState(); x.step = .restoreFile(TextField(path)); x.busy = true; $0.phase = .onboarding(x)
        }
        h.send(.onboarding(.backupNeedsPassphrase(path: path))) { var x = OnboardingState(); x.step = .restoreSecret(path: path, TextField()); $0.phase = .onboarding(x) }
        h.type("s") { var x = OnboardingState(); x.step = .restoreSecret(path: path, TextField("s")); $0.phase = .onboarding(x) }
        h.send(.keyPressed(.enter), [.onboarding(.checkBackup(path: path, backupPassphrase: "s"))]) {
            var x = OnboardingState(); x.step = .restoreSecret(path: path, TextField("s")); x.busy = true; $0.phase = .onboarding(x)
        }
        // A wrong passphrase is said here, before a new one is chosen.
        h.send(.onboarding(.onboardingFailed(ClientError(.invalid, "wrong passphrase, or the backup is damaged.")))) {
            var x = OnboardingState(); x.step = .restoreSecret(path: path, TextField("s")); x.error = "wrong passphrase, or the backup is damaged."
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter), [.onboarding(.checkBackup(path: path, backupPassphrase: "s"))]) {
            var x = OnboardingState(); x.step = .restoreSecret(path: path, TextField("s")); x.busy = true; $0.phase = .onboarding(x)
        }
        let pending = PendingRestore(path: path, backupPassphrase: "s", npub: "npub1x")
        h.send(.onboarding(.backupChecked(path: path, backupPassphrase: "s", npub: "npub1x"))) {
            var x = OnboardingState(); x.step = .passphrase(TextField(), confirm: TextField(), focusConfirm: false); x.pendingRestore = pending
            $0.phase = .onboarding(x)
        }
        h.type("a long passphrase") {
            var x = OnboardingState(); x.step = .passphrase(TextField("a long passphrase"), confirm: TextField(), focusConfirm: false); x.pendingRestore = pending
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter)) {
            var x = OnboardingState(); x.step = .passphrase(TextField("a long passphrase"), confirm: TextField(), focusConfirm: true); x.pendingRestore = pending
            $0.phase = .onboarding(x)
        }
        h.type("a long passphrase") {
            var x = OnboardingState(); x.step = .passphrase(TextField("a long passphrase"), confirm: TextField("a long passphrase"), focusConfirm: true); x.pendingRestore = pending
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.enter), [.onboarding(.restoreBackup(path: path, backupPassphrase: "s", passphrase: "a long passphrase"))]) {
            var x = OnboardingState(); x.step = .passphrase(TextField("a long passphrase"), confirm: TextField("a long passphrase"), focusConfirm: true); x.pendingRestore = pending
            x.busy = true
            $0.phase = .onboarding(x)
        }
        h.send(.onboarding(.onboardingFailed(ClientError(.invalid, "backup conflicts with this device's data: … nothing was restored.")))) {
            var x = OnboardingState(); x.step = .passphrase(TextField("a long passphrase"), confirm: TextField("a long passphrase"), focusConfirm: true); x.pendingRestore = pending
            x.error = "backup conflicts with this device's data: … nothing was restored."
            $0.phase = .onboarding(x)
        }
        // Esc from "again" goes to the first field; from there back to the backup's own passphrase, as typed.
        h.send(.keyPressed(.escape)) {
            var x = OnboardingState(); x.step = .passphrase(TextField("a long passphrase"), confirm: TextField("a long passphrase"), focusConfirm: false); x.pendingRestore = pending
            $0.phase = .onboarding(x)
        }
        h.send(.keyPressed(.escape)) {
            var x = OnboardingState(); x.step = .restoreSecret(path: pending.path, TextField(pending.backupPassphrase ?? "")); $0.phase = .onboarding(x)
        }
    }

    func testAPlainBackupWithThePassphraseInTheEnvironmentRestoresAtOnce() {
        var h = ReducerHarness()
        h.send(.onboarding(.passphraseInEnvironment)) { $0.passphraseInEnvironment = true }
        var x = OnboardingState(); x.step = .restoreFile(TextField("/tmp/b")); x.busy = true
        h.state.phase = .onboarding(x)
        h.send(.onboarding(.backupChecked(path: "/tmp/b", backupPassphrase: nil, npub: "npub1y")), [.onboarding(.restoreBackup(path: "/tmp/b", backupPassphrase: nil, passphrase: nil))]) {
            var y = OnboardingState(); y.step = .restoreFile(TextField("/tmp/b")); y.busy = true
            y.pendingRestore = PendingRestore(path: "/tmp/b", backupPassphrase: nil, npub: "npub1y")
            $0.phase = .onboarding(y)
        }
        h.send(.onboarding(.backupRestored(sessionsAdded: 2, postsAdded: 1))) { $0.status = StatusLine("backup restored: 2 new sessions, 1 new post.", .success) }
    }

    func testAnNcryptsecAsksForItsPassphraseOnceWithoutConfirmation() {
        var h = ReducerHarness()
        var x = OnboardingState(); x.step = .importKey(TextField("ncryptsec1qqqq"))
        h.state.phase = .onboarding(x)
        h.send(.keyPressed(.enter)) {
            var y = OnboardingState(); y.pendingImport = "ncryptsec1qqqq"
            y.step = .passphrase(TextField(), confirm: nil, focusConfirm: false)
            $0.phase = .onboarding(y)
        }
        h.type("k") {
            var y = OnboardingState(); y.pendingImport = "ncryptsec1qqqq"
            y.step = .passphrase(TextField("k"), confirm: nil, focusConfirm: false)
            $0.phase = .onboarding(y)
        }
        h.send(.keyPressed(.enter), [.onboarding(.importIdentity(key: "ncryptsec1qqqq", passphrase: "k"))]) {
            var y = OnboardingState(); y.pendingImport = "ncryptsec1qqqq"; y.busy = true
            y.step = .passphrase(TextField("k"), confirm: nil, focusConfirm: false)
            $0.phase = .onboarding(y)
        }
    }

    func testCtrlCQuitsFromAnywhereAndQQuitsFromTheTopLevel() {
        var h = ReducerHarness(Fixture.main())
        h.send(.keyPressed(.ctrl("c")), [.quit])
        h.send(.keyPressed(.char("q")), [.quit])
        h.state.phase = .booting(.connectingRelays)
        h.send(.keyPressed(.ctrl("c")), [.quit])
        h.send(.keyPressed(.char("q")))
    }

    func testResizeAndClockTicks() {
        var h = ReducerHarness(Fixture.main())
        h.send(.resized(ScreenSize(columns: 120, rows: 40))) { $0.screen = ScreenSize(columns: 120, rows: 40) }
        h.send(.clockTicked(10_001)) { $0.now = 10_001 }
    }

    /// Logout forgets the account (a revealed secret with it) but keeps the terminal's geometry: a reset to
    /// 80×24 left the rows and columns beyond it showing the old screen until the next resize.
    func testLogoutReturnsToBootWithAFreshStateAndTheSameScreen() {
        var h = ReducerHarness(Fixture.main(sessions: [Fixture.session("s1", "One")]))
        h.send(.resized(ScreenSize(columns: 120, rows: 40))) { $0.screen = ScreenSize(columns: 120, rows: 40) }
        h.state.settings.revealedSecret = RevealedSecret(SecretBytes(copying: Array("nsec1secret".utf8)))
        let now = h.state.now
        h.send(.loggedOut, [.boot]) { $0 = AppState(); $0.screen = ScreenSize(columns: 120, rows: 40); $0.now = now }
        XCTAssertNil(h.state.settings.revealedSecret)
    }

    /// Issue 16 (3): notes fade after a few seconds; errors stay until replaced or acknowledged with Esc.
    func testNotesFadeAndErrorsStayUntilAcknowledged() {
        var h = ReducerHarness(Fixture.main())
        let t = h.state.now
        h.send(.settings(.cacheCleared), [.settings(.loadMediaUsage)]) { $0.status = StatusLine("cached media and previews cleared.", .success) }
        h.send(.clockTicked(t + StatusLine.lifetime - 1)) { $0.now = t + StatusLine.lifetime - 1 }
        h.send(.clockTicked(t + StatusLine.lifetime)) { $0.now = t + StatusLine.lifetime; $0.status = nil }
        h.send(.failed(.relayList, ClientError(.invalid, "enter a valid relay url."))) { $0.status = StatusLine("enter a valid relay url.", .error) }
        h.send(.clockTicked(t + 100)) { $0.now = t + 100 }
        h.send(.keyPressed(.char("j")))
        XCTAssertEqual(h.state.status, StatusLine("enter a valid relay url.", .error), "an error outlasts unrelated keys")
        h.send(.keyPressed(.escape)) { $0.status = nil }
    }
}
