import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import Synchronization
import XCTest

@testable import LinkstrTUI

/// The effect handlers TestStore-style: each effect runs against test clients (clipboard, browser,
/// notifier and clock as fakes; a real store in a temporary home; a relay that is not there), and the
/// actions it answers with are asserted, all of them and in order. Effects run one after another, so
/// an effect's answers are all in before the next effect's: `expect` fails on an answer too many.
/// What the test clients saw, and what they answer.
final class TestClients: Sendable {
    let answers = Mutex<[AppAction]>([])
    let copied = Mutex<[String]>([]), opened = Mutex<[String]>([]), rung = Mutex<[String]>([])
    let clipboardText = Mutex<String?>(nil)
    let browserRefuses = Mutex(false)
    /// The account client the runner gets for an open account (nil: the live one).
    let accountClient = Mutex<AccountClient?>(nil)

    var services: Services {
        Services(
            clipboard: Clipboard(copy: { text in self.copied.withLock { $0.append(text) }; return .copied(by: "test clipboard") },
                                 read: { self.clipboardText.withLock { $0 } }),
            browser: Browser(open: { url in
                if self.browserRefuses.withLock({ $0 }) { return .failure(.message("no browser here")) }
                self.opened.withLock { $0.append(url) }
                return .success("opened in the test browser")
            }),
            notifier: Notifier(notify: { title, _, bell, desktop in self.rung.withLock { $0.append("\(title) bell:\(bell) desktop:\(desktop)") } }),
            time: TimeSource(wallSeconds: { 1_700_000_000 }, monotonic: TimeSource.live.monotonic, sleep: TimeSource.live.sleep),
            accountClient: { session, policy in self.accountClient.withLock { $0 } ?? .live(session, requests: policy) })
    }
}

final class EffectHarness: Sendable {
    let home: URL
    let runner: EffectRunner
    let clients = TestClients()

    init(relays: [String] = ["ws://127.0.0.1:9"], passphraseFile: String? = nil) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let options = AppOptions(home: home.path, relays: relays, passphraseFile: passphraseFile, theme: "night", noColor: true, linkPreviews: false)
        let clients = self.clients
        runner = EffectRunner(options: options, services: clients.services) { action in clients.answers.withLock { $0.append(action) } }
    }

    func close() {
        runner.shutdown()
        do { try FileManager.default.removeItem(at: home) } catch { print("could not remove \(home.path): \(error)") }
    }

    /// Runs `effect` and returns what it answered once `complete` holds for the answers so far. The
    /// deadline only keeps a broken handler from hanging the suite; it is not a timing assertion.
    @discardableResult
    func send(_ effect: AppEffect, file: StaticString = #filePath, line: UInt = #line,
              until complete: ([AppAction]) -> Bool) throws -> [AppAction] {
        runner.perform(effect)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let got = clients.answers.withLock { $0 }
            if complete(got) {
                clients.answers.withLock { $0.removeFirst(got.count) }
                return got
            }
            usleep(2_000)
        }
        let got = clients.answers.withLock { $0 }
        XCTFail("\(effect) did not answer as expected; it answered \(got)", file: file, line: line)
        throw CancellationError()
    }

    /// Runs an effect that creates an identity and returns the identity it opened.
    func created(_ effect: AppEffect, file: StaticString = #filePath, line: UInt = #line) throws -> IdentityInfo {
        let got = try send(effect, file: file, line: line) { got in got.contains { if case .onboarding(.identityCreated) = $0 { true } else { false } } }
        guard case .onboarding(.identityCreated(let info, _))? = got.last else { throw CancellationError() }
        return info
    }

    /// Runs `effect` and asserts that it answers exactly `expected`.
    func expect(_ effect: AppEffect, _ expected: [AppAction], _ why: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try send(effect, file: file, line: line) { $0.count >= expected.count }
        XCTAssertEqual(got, expected, "\(effect) \(why)", file: file, line: line)
        try expectNothingMore(file: file, line: line)
    }

    /// Nothing else arrived: a load of the identities (answered by one action) is run after everything
    /// sent before it, on the same queue, so anything still due from those is in by its answer.
    func expectNothingMore(file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try send(.you(.loadIdentities), file: file, line: line) { $0.contains { if case .you(.identitiesLoaded) = $0 { true } else { false } } }
        XCTAssertEqual(got.count, 1, "answers nobody asserted: \(got.dropLast())", file: file, line: line)
    }
}

final class EffectHarnessTests: XCTestCase {
    var harness: EffectHarness!
    override func setUpWithError() throws { harness = try EffectHarness() }
    override func tearDown() { harness.close() }

    /// Boot to an account: the steps, the identity, the relay rows, and what a new account loads.
    func openAccount() throws -> IdentityInfo { try openAccountWithSecret().0 }

    func openAccountWithSecret() throws -> (IdentityInfo, RevealedSecret) {
        try harness.expect(.boot, [.bootStepReached(.loadingAccount), .bootStepReached(.preparingLocalData), .onboarding(.identityMissing)])
        let created = try harness.send(.onboarding(.createIdentity(name: "Ann", passphrase: "correct horse battery staple"))) { got in
            got.contains { if case .onboarding(.identityCreated) = $0 { true } else { false } }
        }
        XCTAssertEqual(created.count, 3, "\(created)")
        XCTAssertEqual(created.first, .bootStepReached(.connectingRelays))
        XCTAssertEqual(created.dropFirst().first, .settings(.relaysChanged([RelayRow(url: "ws://127.0.0.1:9", health: .connecting)])))
        guard case .onboarding(.identityCreated(let info, let nsec)) = created.last else { throw CancellationError() }
        XCTAssertEqual(info.profileName, "Ann")
        XCTAssertFalse(info.backedUp)
        XCTAssertEqual(nsec.withUnsafeBytes { Array($0.prefix(5)) }, Array("nsec1".utf8))
        XCTAssertEqual(nsec.count, 63)
        try harness.expectNothingMore()
        return (info, nsec)
    }

    func testANewAccountLoadsEmptyAndItsLocalPreferencesPersist() throws {
        let info = try openAccount()
        try harness.expect(.you(.loadIdentities), [.you(.identitiesLoaded([IdentityEntry(pubkey: info.pubkey, npub: info.npub, active: true)]))])
        try harness.expect(.you(.loadContacts), [.you(.contactsLoaded([])), .you(.profileNamesLoaded([:]))])
        try harness.expect(.sessions(.loadDrafts), [.sessions(.draftsLoaded([:]))])
        try harness.expect(.loadLocalPreferences, [.commandHistoryLoaded([]), .sessions(.mutedLoaded([]))])
        // Saving answers nothing; what was saved is what loads next.
        try harness.expect(.sessions(.saveMuted(["S2", "S1"])), [])
        try harness.expect(.saveCommandHistory(["search films", "theme day"]), [])
        try harness.expect(.sessions(.saveDraft(sessionID: "S1", Draft(link: "https://example.com", note: "later"))), [])
        try harness.expect(.loadLocalPreferences, [.commandHistoryLoaded(["search films", "theme day"]), .sessions(.mutedLoaded(["S1", "S2"]))])
        try harness.expect(.sessions(.loadDrafts), [.sessions(.draftsLoaded(["S1": Draft(link: "https://example.com", note: "later")]))])
        try harness.expect(.sessions(.saveDraft(sessionID: "S1", nil)), [])
        try harness.expect(.sessions(.loadDrafts), [.sessions(.draftsLoaded([:]))])
    }

    func testTheSystemAroundTheAppIsReachedThroughItsClients() throws {
        _ = try openAccount()
        try harness.expect(.copy("https://example.com/a", label: "link"), [.copyFinished(label: "link", .copied(by: "test clipboard"))])
        XCTAssertEqual(harness.clients.copied.withLock { $0 }, ["https://example.com/a"])
        harness.clients.clipboardText.withLock { $0 = "https://example.com/b" }
        try harness.expect(.post(.readClipboard), [.post(.clipboardRead("https://example.com/b"))])
        try harness.expect(.post(.openURL("https://example.com/a")), [.post(.linkOpened(how: "opened in the test browser"))])
        XCTAssertEqual(harness.clients.opened.withLock { $0 }, ["https://example.com/a"])
        harness.clients.browserRefuses.withLock { $0 = true }
        try harness.expect(.post(.openURL("https://example.com/c")), [.failed(.openLink, ClientError(.invalid, "no browser here"))])
        try harness.expect(.notify(title: "Films", body: "a link", via: .bell), [])
        XCTAssertEqual(harness.clients.rung.withLock { $0 }, ["Films bell:true desktop:false"])
    }

    func testRelayEditsAnswerWithTheRowsOrWhatWasWrong() throws {
        _ = try openAccount()
        let first = RelayRow(url: "ws://127.0.0.1:9", health: .connecting)
        try harness.expect(.settings(.addRelay("wss://127.0.0.1:10")), [.settings(.relaysChanged([first, RelayRow(url: "wss://127.0.0.1:10", health: .connecting)]))])
        let refused = try harness.send(.settings(.addRelay("not a relay"))) { !$0.isEmpty }
        guard case .failed(.relayList, let why) = refused.first, refused.count == 1 else { return XCTFail("\(refused)") }
        XCTAssertEqual(why.kind, .invalid)
        XCTAssertFalse(why.detail.isEmpty)
        try harness.expectNothingMore()
        try harness.expect(.settings(.setRelayEnabled("wss://127.0.0.1:10", false)),
                           [.settings(.relaysChanged([first, RelayRow(url: "wss://127.0.0.1:10", health: .disabled)]))])
        try harness.expect(.settings(.removeRelay("wss://127.0.0.1:10")), [.settings(.relaysChanged([first]))])
    }

    func testClearingTheCacheRemovesItAndLoggingOutLeavesNothingToAnswer() throws {
        let (info, nsec) = try openAccountWithSecret()
        let cache = DataPaths.resolve(home: harness.home.path).cache(for: info.pubkey)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: cache.appendingPathComponent("thumb"))
        try harness.expect(.settings(.clearCache), [.settings(.cacheCleared)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path))
        try harness.expect(.settings(.clearCache), [.settings(.cacheCleared)], "nothing there: still cleared")
        try harness.expect(.settings(.revealSecret), [.settings(.secretRevealed(nsec))], "the same key as onboarding showed (equal by content)")
        try harness.expect(.settings(.logout(clearData: false)), [.loggedOut])
        // No account: its loads and its secret answer nothing.
        try harness.expect(.you(.loadContacts), [])
        try harness.expect(.settings(.revealSecret), [])
        // The key has left this device.
        try harness.expect(.you(.loadIdentities), [.you(.identitiesLoaded([]))])
    }
}
