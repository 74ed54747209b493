import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

/// Settings' `P`: the current passphrase, the new one twice; a weak new one said once, a mismatch
/// clears the repeat, a wrong current one clears every field; success closes the box.
final class ChangePassphraseReducerTests: XCTestCase {
    func testTheFormAsksSaysAndSends() {
        var h = ReducerHarness(AppFixture.main())
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        h.send(.keyPressed(.char("P"))) { $0.overlay = .changePassphrase(ChangePassphraseForm()) }
        var f = ChangePassphraseForm()
        h.send(.keyPressed(.enter)) { f.error = "type the passphrase you unlock with now."; $0.overlay = .changePassphrase(f) }
        h.type("old one here") { f.current = TextField("old one here"); f.error = nil; $0.overlay = .changePassphrase(f) }
        h.send(.keyPressed(.enter)) { f.focus = .new; $0.overlay = .changePassphrase(f) }
        h.type("weak") { f.new = TextField("weak"); $0.overlay = .changePassphrase(f) }
        h.send(.keyPressed(.enter)) {
            f.weakSaid = true
            f.error = "that passphrase is weak: it is shorter than 8 characters. Type a longer one, or press Enter again to use it anyway."
            $0.overlay = .changePassphrase(f)
        }
        h.send(.keyPressed(.enter)) { f.error = nil; f.focus = .again; $0.overlay = .changePassphrase(f) }
        h.type("wrong") { f.again = TextField("wrong"); $0.overlay = .changePassphrase(f) }
        h.send(.keyPressed(.enter)) { f.again = TextField(); f.error = "the new passphrases do not match."; $0.overlay = .changePassphrase(f) }
        h.type("weak") { f.again = TextField("weak"); f.error = nil; $0.overlay = .changePassphrase(f) }
        h.send(.keyPressed(.enter), [.settings(.changePassphrase(old: "old one here", new: "weak"))]) { f.busy = true; $0.overlay = .changePassphrase(f) }
        h.send(.settings(.passphraseChangeAnswered(.currentWrong))) {
            f = ChangePassphraseForm()
            f.error = "that is not the current passphrase: nothing was changed."
            $0.overlay = .changePassphrase(f)
        }
        h.send(.settings(.passphraseChangeAnswered(.changed))) {
            $0.overlay = nil
            $0.status = StatusLine("passphrase changed: unlock with the new one from now on.", .success)
        }
    }
}
