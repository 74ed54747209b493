import LinkstrApp
import LinkstrDomain
import NostrProtocol
import XCTest

/// The You pane (name, npub, contacts, identities) and Settings (relays, storage, secret key, log out, delete).
final class YouSettingsReducerTests: XCTestCase {
    typealias F = Fixture

    func testProfileNameEditAndCopyNpub() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("3")), [.you(.loadIdentities)]) { $0.pane = .you }
        h.send(.keyPressed(.char("y")), [.copy(F.meInfo.npub, label: "npub")])
        h.send(.keyPressed(.char("e"))) { $0.you.editingName = TextField("Me") }
        // While editing, digits are text, not pane switches.
        h.send(.keyPressed(.char("2"))) { $0.you.editingName = TextField("Me2") }
        h.send(.keyPressed(.enter), [.you(.setProfileName("Me2"))])
        h.send(.you(.profileNameSaved("Me2"))) {
            $0.identity?.profileName = "Me2"
            $0.you.editingName = nil
            $0.status = StatusLine("profile name saved.", .success)
        }
        h.send(.keyPressed(.char("e"))) { $0.you.editingName = TextField("Me2") }
        h.send(.keyPressed(.ctrl("u"))) { $0.you.editingName = TextField() }
        h.send(.keyPressed(.enter), [.you(.setProfileName(nil))])
    }

    /// Wire 2026 §7.2: f asks the relays who added you; those who are not contacts are listed after the
    /// contacts, and Enter on one opens the add-contact form with their key filled in.
    func testAPartialAnswerSaysSoAndLiveChangesWaitUntilAsked() {
        var h = ReducerHarness(F.main())
        h.send(.you(.addedYouChanged([F.bob])))  // not asked yet: nothing to update
        h.send(.you(.addedYouLoaded([F.bob], complete: false)), [.you(.watchAddedYou(true))]) {
            $0.you.addedYou = [F.bob]
            $0.status = StatusLine("1 added you. " + AddedYouRule.partialNote, .warning)
        }
    }

    func testWhoAddedYouIsAskedForAndEachCanBeAdded() throws {
        var h = ReducerHarness(F.main())
        h.state.contacts = [Contact(pubkey: F.bob)]
        h.send(.keyPressed(.char("3")), [.you(.loadIdentities)]) { $0.pane = .you }
        h.send(.keyPressed(.char("f")), [.you(.loadAddedYou)]) {
            $0.you.askingAddedYou = true
            $0.status = StatusLine("asking your relays who added you…")
        }
        h.send(.keyPressed(.char("f")))  // one question at a time
        h.send(.you(.addedYouLoaded([F.bob, F.carol], complete: true)), [.you(.watchAddedYou(true))]) {
            $0.you.addedYou = [F.bob, F.carol]
            $0.you.askingAddedYou = false
            $0.status = StatusLine("2 added you, 1 not in your contacts.", .success)
        }
        XCTAssertEqual(h.state.you.entries(contacts: h.state.contacts), [.contact(F.bob), .follower(F.carol)])
        // Live: someone follows, someone unfollows; the selection stays on a row.
        h.send(.you(.addedYouChanged([F.bob, F.carol, F.me]))) { $0.you.addedYou = [F.bob, F.carol, F.me] }
        h.send(.keyPressed(.down)) { $0.you.selection = 1 }
        h.send(.keyPressed(.down)) { $0.you.selection = 2 }
        h.send(.you(.addedYouChanged([F.bob, F.carol]))) { $0.you.addedYou = [F.bob, F.carol]; $0.you.selection = 1 }
        h.send(.keyPressed(.up)) { $0.you.selection = 0 }
        h.send(.keyPressed(.down)) { $0.you.selection = 1 }
        h.send(.keyPressed(.enter)) {
            var form = ContactForm()
            form.key = TextField(try! PublicKey(hex: F.carol).npub)
            form.focus = 1
            $0.overlay = .contact(form)
        }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
        h.send(.keyPressed(.char("f")), [.you(.loadAddedYou)]) {
            $0.you.askingAddedYou = true
            $0.status = StatusLine("asking your relays who added you…")
        }
        h.send(.you(.addedYouFailed(ClientError(.timeout, "no relay answered, so who added you is unknown right now. try again.")))) {
            $0.you.askingAddedYou = false
            $0.status = StatusLine("no relay answered, so who added you is unknown right now. try again.", .error)
        }
        XCTAssertEqual(h.state.you.addedYou, [F.bob, F.carol], "a failed question keeps what was known")
    }

    func testAddingAContactValidatesTheKeyThenAsksForAnAlias() throws {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("3")), [.you(.loadIdentities)]) { $0.pane = .you }
        h.send(.keyPressed(.char("a"))) { $0.overlay = .contact(ContactForm()) }
        h.type("npub1nope") { var f = ContactForm(); f.key = TextField("npub1nope"); $0.overlay = .contact(f) }
        h.send(.keyPressed(.enter)) {
            var f = ContactForm(); f.key = TextField("npub1nope"); f.error = "that npub is too short to carry a checksum."
            $0.overlay = .contact(f)
        }
        let notAPoint = String(repeating: "f", count: 64)
        h.send(.keyPressed(.ctrl("u"))) { var f = ContactForm(); f.key = TextField(); $0.overlay = .contact(f) }
        h.send(.textPasted(notAPoint)) { var f = ContactForm(); f.key = TextField(notAPoint); $0.overlay = .contact(f) }
        h.send(.keyPressed(.enter)) {
            var f = ContactForm(); f.key = TextField(notAPoint); f.error = "not a public key: ffffffff… is not a point on secp256k1."
            $0.overlay = .contact(f)
        }
        let npub = try PublicKey(hex: F.bob).npub
        h.send(.keyPressed(.ctrl("u"))) { var f = ContactForm(); f.key = TextField(); $0.overlay = .contact(f) }
        h.send(.textPasted("nostr:\(npub)")) { var f = ContactForm(); f.key = TextField("nostr:\(npub)"); $0.overlay = .contact(f) }
        guard case .contact(let form)? = h.state.overlay else { return XCTFail("the contact form is open") }
        XCTAssertEqual(form.pubkey, F.bob)
        h.send(.keyPressed(.enter)) { var f = ContactForm(); f.key = TextField("nostr:\(npub)"); f.focus = 1; $0.overlay = .contact(f) }
        h.type("Bob") { var f = ContactForm(); f.key = TextField("nostr:\(npub)"); f.focus = 1; f.alias = TextField("Bob"); $0.overlay = .contact(f) }
        h.send(.keyPressed(.enter), [.you(.addContact(F.bob, alias: "Bob", input: "nostr:\(npub)"))]) {
            var f = ContactForm(); f.key = TextField("nostr:\(npub)"); f.focus = 1; f.alias = TextField("Bob"); f.busy = true
            $0.overlay = .contact(f)
        }
        h.send(.you(.contactSaved(F.bob)), [.you(.loadContacts)]) { $0.overlay = nil; $0.status = StatusLine("contact added.", .success) }
        h.send(.you(.contactsLoaded([Contact(pubkey: F.carol), Contact(pubkey: F.bob, alias: "Bob")]))) {
            // Named contacts first, sorted by name.
            $0.contacts = [Contact(pubkey: F.bob, alias: "Bob"), Contact(pubkey: F.carol)]
        }
    }

    func testYourOwnKeyIsNotAContactAndKnownContactsOnlyGetANewAlias() {
        var h = ReducerHarness(F.main(contacts: [Contact(pubkey: F.bob, alias: "Bob")]))
        h.send(.keyPressed(.char("3")), [.you(.loadIdentities)]) { $0.pane = .you }
        h.send(.keyPressed(.char("a"))) { $0.overlay = .contact(ContactForm()) }
        h.send(.textPasted(F.me)) { var f = ContactForm(); f.key = TextField(F.me); $0.overlay = .contact(f) }
        h.send(.keyPressed(.ctrl("s"))) { var f = ContactForm(); f.key = TextField(F.me); f.error = "that is you."; $0.overlay = .contact(f) }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
        // Re-adding a contact (r on the selected one) only updates the alias: no follow-list republish.
        h.send(.keyPressed(.char("r"))) { $0.overlay = .contact(ContactForm(editing: F.bob, alias: "Bob")) }
        h.type("by") { var f = ContactForm(editing: F.bob, alias: "Bobby"); f.alias.cursor = 5; $0.overlay = .contact(f) }
        h.send(.keyPressed(.enter), [.you(.setAlias(F.bob, alias: "Bobby"))]) {
            var f = ContactForm(editing: F.bob, alias: "Bobby"); f.busy = true; $0.overlay = .contact(f)
        }
        h.send(.you(.contactSaveFailed(ClientError(.storage, "disk full")))) { var f = ContactForm(editing: F.bob, alias: "Bobby"); f.error = "disk full"; $0.overlay = .contact(f) }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
        h.send(.keyPressed(.char("x"))) {
            $0.overlay = .confirm(Confirmation(.removeContact(F.bob),
                "remove \(AccountState.shortNpub(F.bob)) from your contacts? this publishes your follow list. (y/n)"))
        }
        h.send(.keyPressed(.char("y")), [.you(.removeContact(F.bob))]) { $0.overlay = nil; $0.status = StatusLine("removing contact…") }
    }

    func testSwitchingIdentityFromTheList() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("3")), [.you(.loadIdentities)]) { $0.pane = .you }
        let ids = [IdentityEntry(pubkey: F.me, npub: "npub1me", active: true), IdentityEntry(pubkey: F.carol, npub: "npub1carol", active: false)]
        h.send(.you(.identitiesLoaded(ids))) { $0.you.identities = ids }
        h.send(.keyPressed(.enter))  // the active one: nothing to do
        h.send(.keyPressed(.down)) { $0.you.selection = 1 }
        h.send(.keyPressed(.enter), [.you(.switchIdentity(F.carol))])
        h.send(.onboarding(.passphraseNeeded(pubkey: F.carol, npub: "npub1carol"))) { $0.phase = .unlock(UnlockState(pubkey: F.carol, npub: "npub1carol")) }
    }

    func settings() -> ReducerHarness {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        return h
    }

    func testRelayListSortedWithHeaderAndActions() {
        var h = settings()
        let rows = [RelayRow(url: "wss://b.example", health: .failed, error: "connection refused"), RelayRow(url: "wss://a.example", health: .connected),
                    RelayRow(url: "wss://c.example", health: .readOnly)]
        h.send(.settings(.relaysChanged(rows))) { $0.settings.relays = [rows[1], rows[0], rows[2]] }
        XCTAssertEqual(h.state.settings.header, "2 / 3")
        h.send(.keyPressed(.down)) { $0.settings.selection = 1 }
        h.send(.keyPressed(.char(" ")), [.settings(.setRelayEnabled("wss://b.example", false))])
        h.send(.keyPressed(.char("x"))) { $0.overlay = .confirm(Confirmation(.removeRelay("wss://b.example"), "remove wss://b.example? (y/n)")) }
        h.send(.keyPressed(.char("y")), [.settings(.removeRelay("wss://b.example"))]) { $0.overlay = nil }
        h.send(.keyPressed(.char("a"))) { $0.settings.adding = TextField("wss://") }
        h.type("relay.example") { $0.settings.adding = TextField("wss://relay.example") }
        h.send(.keyPressed(.enter), [.settings(.addRelay("wss://relay.example"))]) {
            $0.settings.adding = nil
            $0.settings.pendingAdd = "wss://relay.example"
            $0.status = StatusLine("adding wss://relay.example…"); $0.status?.since = $0.now
        }
        h.send(.keyPressed(.char("R"))) { $0.overlay = .confirm(Confirmation(.resetRelays, "replace your relays with the defaults? (y/n)")) }
        h.send(.keyPressed(.char("y")), [.settings(.resetRelays)]) { $0.overlay = nil }
        h.send(.keyPressed(.char("s"))) { $0.settings.showStats = true }
        h.send(.keyPressed(.char("t")), [.settings(.testRelay("wss://b.example"))]) { $0.status = StatusLine("testing wss://b.example…") }
        h.send(.settings(.relayTested(url: "wss://b.example", summary: "connected in 3 ms, answered in 1 ms", ok: true))) {
            $0.status = StatusLine("wss://b.example: connected in 3 ms, answered in 1 ms", .success)
        }
        h.send(.settings(.relayTested(url: "wss://b.example", summary: "connection refused", ok: false))) {
            $0.status = StatusLine("wss://b.example: connection refused", .error)
        }
        h.send(.post(.linkTitlesLoaded(["https://example.com/a": "A page"]))) {
            $0.linkTitles = ["https://example.com/a": "A page"]
            $0.linkTitlesVersion = 1
        }
        h.send(.keyPressed(.char("C"))) { $0.overlay = .confirm(Confirmation(.clearCache, "clear cached media and previews? posts stay. (y/n)")) }
        h.send(.keyPressed(.char("y")), [.settings(.clearCache)]) {
            $0.overlay = nil
            $0.linkTitles = [:]
            $0.linkTitlesVersion = 2
        }
        // A disabled relay switches back on.
        h.send(.settings(.relaysChanged([RelayRow(url: "wss://a.example", health: .disabled)]))) {
            $0.settings.relays = [RelayRow(url: "wss://a.example", health: .disabled)]
            $0.settings.selection = 0
        }
        h.send(.keyPressed(.char(" ")), [.settings(.setRelayEnabled("wss://a.example", true))])
    }

    func testSecretKeyShowsOnlyAfterConfirmationAndHidesAfter60sOrLeaving() {
        var h = settings()
        h.send(.keyPressed(.char("y")))  // nothing revealed, nothing to copy
        h.send(.keyPressed(.char("S"))) {
            $0.overlay = .confirm(Confirmation(.revealSecret, "show your secret key (nsec)? anyone who sees it can act as you. (y/n)"))
        }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
        h.send(.keyPressed(.char("S"))) {
            $0.overlay = .confirm(Confirmation(.revealSecret, "show your secret key (nsec)? anyone who sees it can act as you. (y/n)"))
        }
        h.send(.keyPressed(.char("y")), [.settings(.revealSecret)]) { $0.overlay = nil }
        let secret = RevealedSecret(SecretBytes(copying: Array("nsec1abc".utf8)))
        h.send(.settings(.secretRevealed(secret))) { $0.settings.revealedSecret = secret; $0.settings.revealedUntil = 10_060 }
        h.send(.keyPressed(.char("y")), [.settings(.copySecret(secret))])
        h.send(.clockTicked(10_059)) { $0.now = 10_059 }
        h.send(.clockTicked(10_060)) { $0.now = 10_060; $0.settings.revealedSecret = nil; $0.settings.revealedUntil = nil }
        // Revealed again, then leaving the pane hides it.
        h.send(.settings(.secretRevealed(secret))) { $0.settings.revealedSecret = secret; $0.settings.revealedUntil = 10_120 }
        h.send(.keyPressed(.char("1"))) { $0.pane = .sessions; $0.settings.revealedSecret = nil; $0.settings.revealedUntil = nil }
        // An answer arriving after we left is not shown.
        h.send(.settings(.secretRevealed(secret)))
    }

    func testLogoutAndTwoStepAccountDeletion() {
        var h = settings()
        h.send(.keyPressed(.char("L"))) { $0.overlay = .confirm(Confirmation(.logout(clearData: false), "log out and keep local data? (y/n)")) }
        h.send(.keyPressed(.char("y")), [.settings(.logout(clearData: false))]) { $0.overlay = nil }
        h.send(.keyPressed(.char("X"))) { $0.overlay = .confirm(Confirmation(.logout(clearData: true), "log out and CLEAR this account's local data? (y/n)")) }
        h.send(.keyPressed(.char("y")), [.settings(.logout(clearData: true))]) { $0.overlay = nil }
        h.send(.keyPressed(.char("D"))) {
            $0.overlay = .confirm(Confirmation(.deleteAccount(step: 1), "delete your account? this asks relays to erase you (NIP-62). (y/n)"))
        }
        h.send(.keyPressed(.char("y"))) {
            $0.overlay = .confirm(Confirmation(.deleteAccount(step: 2), "really delete? this cannot be undone. type y again to delete. (y/n)"))
        }
        h.send(.keyPressed(.char("n"))) { $0.overlay = nil }
        h.send(.keyPressed(.char("D"))) {
            $0.overlay = .confirm(Confirmation(.deleteAccount(step: 1), "delete your account? this asks relays to erase you (NIP-62). (y/n)"))
        }
        h.send(.keyPressed(.char("y"))) {
            $0.overlay = .confirm(Confirmation(.deleteAccount(step: 2), "really delete? this cannot be undone. type y again to delete. (y/n)"))
        }
        h.send(.keyPressed(.char("y")), [.settings(.deleteAccount)]) { $0.overlay = nil; $0.status = StatusLine("deleting account…") }
        h.send(.failed(.deleteAccount, ClientError(.rejectedByRelays, "no relay accepted the request."))) {
            $0.status = StatusLine("account not deleted: no relay accepted the request.", .error)
        }
    }

    func testRelayFiguresAreRefreshedWhileShown() {
        var h = ReducerHarness(F.main())
        h.send(.clockTicked(20_000)) { $0.now = 20_000 }
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        h.send(.clockTicked(20_001)) { $0.now = 20_001 }
        h.send(.keyPressed(.char("s"))) { $0.settings.showStats = true }
        h.send(.clockTicked(20_002), [.settings(.refreshRelayStats)]) { $0.now = 20_002 }
    }
}
