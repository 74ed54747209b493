import LinkstrApp
import LinkstrDomain
import XCTest

/// The help overlay, the `:` command line, mouse clicks and the wheel.
final class OverlayMouseReducerTests: XCTestCase {
    typealias F = Fixture
    let films = F.session("s1", "Films", creator: F.me, members: [F.me, F.bob])

    func testHelpOpensWithQuestionMarkAndAnyKeyCloses() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("?"))) { $0.overlay = .help }
        h.send(.keyPressed(.char("q"))) { $0.overlay = nil }
    }

    func testCommandLinePostReactWhoOpenCopyHelpAndUnknown() {
        let post = F.post("p1", in: "s1", url: "https://example.com/z")
        var h = ReducerHarness(F.feed(films, posts: [post], contacts: [Contact(pubkey: F.bob, alias: "Bob")]))
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.type("post example.org/x a note here") { $0.overlay = .commandLine(TextField("post example.org/x a note here")) }
        h.enterCommand([.post(.sendPost(sessionID: "s1", url: "https://example.org/x", note: "a note here"))]) {
            $0.overlay = nil
            $0.status = StatusLine("sending…")
        }
        func run(_ line: String, _ effects: [AppEffect], _ change: @escaping (inout AppState) -> Void) {
            h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
            h.send(.textPasted(line)) { $0.overlay = .commandLine(TextField(DisplayText.singleLine(line))) }
            h.enterCommand(effects) { $0.overlay = nil; change(&$0) }
        }
        run("react 🔥", [.post(.react(postID: "p1", emoji: "🔥"))]) { _ in }
        run("who", []) { $0.status = StatusLine("members: you, Bob") }
        // Without an alias, :who names people by their profile name, as everywhere else (issue 16, 6).
        h.state.contacts = []
        h.state.profileNames = [F.bob: "Robert"]
        run("who", []) { $0.status = StatusLine("members: you, ~Robert") }
        run("open", [.post(.openURL("https://example.com/z"))]) { _ in }
        run("copy", [.copy("https://example.com/z", label: "link")]) { _ in }
        run("post ftp://x.example", []) { $0.status = StatusLine(SendRuleError.invalidURL.description, .error) }
        run("react", []) { $0.status = StatusLine("usage: :react 👍", .error) }
        run("frobnicate\u{1B}[2J", []) { $0.status = StatusLine("unknown command :frobnicate[2J (try :help, or Tab to complete)", .error) }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("help")) { $0.overlay = .commandLine(TextField("help")) }
        h.enterCommand { $0.overlay = .help }
        h.send(.keyPressed(.escape)) { $0.overlay = nil; $0.status = nil }  // and acknowledges the error
        // Backspace on an empty command line closes it.
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.keyPressed(.backspace)) { $0.overlay = nil }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("quit")) { $0.overlay = .commandLine(TextField("quit")) }
        h.enterCommand([.quit]) { $0.overlay = nil }
    }

    /// wire 2026 §8 in the app: `:export PATH` asks for the sealing passphrase twice; `:export-ios PATH`
    /// says the file holds the key in plain text and asks first.
    func testExportCommandsAskForAPassphraseOrAConfirmation() {
        var h = ReducerHarness(F.main())
        func command(_ line: String, _ effects: [AppEffect] = [], _ change: @escaping (inout AppState) -> Void) {
            h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
            h.send(.textPasted(line)) { $0.overlay = .commandLine(TextField(line)) }
            h.enterCommand(effects) { $0.overlay = nil; change(&$0) }
        }
        command("export") { $0.status = StatusLine("usage: :export PATH (a new file)", .error) }
        command("export ~/my backup.linkstrbackup") { $0.overlay = .exportBackup(ExportBackupForm(path: "~/my backup.linkstrbackup")) }
        var form = ExportBackupForm(path: "~/my backup.linkstrbackup")
        h.send(.keyPressed(.enter)) { form.focusConfirm = true; $0.overlay = .exportBackup(form) }
        h.send(.keyPressed(.enter)) {
            form.focusConfirm = false; form.error = "choose a passphrase: it is the only way to open this backup."; $0.overlay = .exportBackup(form)
        }
        h.send(.textPasted("words one")) { form.passphrase = TextField("words one"); form.error = nil; $0.overlay = .exportBackup(form) }
        h.send(.keyPressed(.tab)) { form.focusConfirm = true; $0.overlay = .exportBackup(form) }
        h.type("words two") { form.confirm = TextField("words two"); $0.overlay = .exportBackup(form) }
        h.send(.keyPressed(.enter)) { form.confirm = TextField(); form.error = "the passphrases do not match."; $0.overlay = .exportBackup(form) }
        h.type("words one") { form.confirm = TextField("words one"); form.error = nil; $0.overlay = .exportBackup(form) }
        h.send(.keyPressed(.enter), [.settings(.exportBackup(path: "~/my backup.linkstrbackup", passphrase: "words one"))]) {
            form.busy = true; $0.overlay = .exportBackup(form)
        }
        h.send(.keyPressed(.escape)) { $0.status = nil }  // busy: the form stays (Esc only acknowledges the earlier error)
        h.send(.settings(.backupExportFailed(ClientError(.invalid, "~/my backup.linkstrbackup exists already: choose another name.")))) {
            form.busy = false; form.error = "~/my backup.linkstrbackup exists already: choose another name."; $0.overlay = .exportBackup(form)
        }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
        command("export-ios /tmp/x") {
            $0.overlay = .confirm(Confirmation(.exportPlainBackup(path: "/tmp/x"),
                                               "the iOS backup holds your secret key in plain text: anyone who reads it is you. write it? (y/n)"))
        }
        h.send(.keyPressed(.char("y")), [.settings(.exportBackup(path: "/tmp/x", passphrase: nil))]) { $0.overlay = nil; $0.status = StatusLine("writing the backup…") }
        h.send(.settings(.backupExported(path: "/tmp/x"))) { $0.status = StatusLine("backup written to /tmp/x.", .success) }
    }

    /// "Copied" only when a tool said so; OSC 52 alone is reported as sent (issue 14, item 9).
    func testACopySaysWhereItWent() {
        var h = ReducerHarness(F.main())
        h.send(.copyFinished(label: "link", .copied(by: "wl-copy"))) { $0.status = StatusLine("copied link.", .success) }
        h.send(.copyFinished(label: "npub", .sentToTerminal)) {
            $0.status = StatusLine("npub sent by OSC 52 (not copied? install wl-copy or xclip).", .warning)
        }
        h.send(.copyFinished(label: "secret key", .failed)) {
            $0.status = StatusLine("could not copy the secret key: install wl-copy or xclip, or select it on screen.", .error)
        }
    }

    /// Issue 14, item 3: `:` opens empty (no `/`), Tab completes command names and emoji shortcodes,
    /// ↑/↓ walk the history (kept on disk through an effect; a repeat is not kept twice).
    func testCommandLineCompletesAndRemembers() {
        let post = F.post("p1", in: "s1")
        var h = ReducerHarness(F.feed(films, posts: [post]))
        h.send(.commandHistoryLoaded(["who", "read"])) { $0.commandHistory = ["who", "read"] }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.type("re") { $0.overlay = .commandLine(TextField("re")) }
        // react, read, relay, rename, repair, requests: no longer prefix; they are listed above the prompt (issue 33 item 14).
        h.send(.keyPressed(.tab)) { $0.overlay = .commandLine(TextField("re")); $0.completions = ["react", "read", "relay", "rename", "repair", "requests"] }
        // Issue 54 (11): Tab again takes each candidate in turn, the list staying; past the last, the first.
        h.send(.keyPressed(.tab)) { $0.overlay = .commandLine(TextField("react")) }
        h.send(.keyPressed(.tab)) { $0.overlay = .commandLine(TextField("read")) }
        for _ in 0..<4 { _ = AppReducer.reduce(&h.state, .keyPressed(.tab)) }
        XCTAssertEqual(h.state.overlay, .commandLine(TextField("requests")))
        h.send(.keyPressed(.tab)) { $0.overlay = .commandLine(TextField("react")) }  // round again
        h.send(.keyPressed(.backspace)) { $0.overlay = .commandLine(TextField("reac")); $0.completions = [] }
        h.send(.keyPressed(.backspace)) { $0.overlay = .commandLine(TextField("rea")) }
        h.send(.keyPressed(.backspace)) { $0.overlay = .commandLine(TextField("re")) }
        h.type("a") { $0.overlay = .commandLine(TextField("rea")); $0.completions = [] }
        h.send(.keyPressed(.tab)) { $0.overlay = .commandLine(TextField("rea")); $0.completions = ["react", "read"] }
        h.type("c") { $0.overlay = .commandLine(TextField("reac")); $0.completions = [] }
        h.send(.keyPressed(.tab)) { $0.overlay = .commandLine(TextField("react ")) }
        h.type(":fire:") { $0.overlay = .commandLine(TextField("react :fire:")) }
        h.send(.keyPressed(.tab)) { $0.overlay = .commandLine(TextField("react 🔥")) }
        // ↑ shows older commands, ↓ comes back to what was typed.
        h.send(.keyPressed(.up)) { $0.overlay = .commandLine(TextField("read")); $0.historyIndex = 1; $0.historyDraft = "react 🔥" }
        h.send(.keyPressed(.up)) { $0.overlay = .commandLine(TextField("who")); $0.historyIndex = 0 }
        h.send(.keyPressed(.up))
        h.send(.keyPressed(.down)) { $0.overlay = .commandLine(TextField("read")); $0.historyIndex = 1 }
        h.send(.keyPressed(.down)) { $0.overlay = .commandLine(TextField("react 🔥")); $0.historyIndex = nil }
        h.send(.keyPressed(.enter), [.saveCommandHistory(["who", "read", "react 🔥"]), .post(.react(postID: "p1", emoji: "🔥"))]) {
            $0.overlay = nil
            $0.commandHistory = ["who", "read", "react 🔥"]
        }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.keyPressed(.up)) { $0.overlay = .commandLine(TextField("react 🔥")); $0.historyIndex = 2; $0.historyDraft = "" }
        h.send(.keyPressed(.enter), [.post(.react(postID: "p1", emoji: "🔥"))]) { $0.overlay = nil }  // the same again: not kept twice
    }

    func testCommandsThatNeedASessionSaySo() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("post https://x.example")) { $0.overlay = .commandLine(TextField("post https://x.example")) }
        h.enterCommand { $0.overlay = nil; $0.status = StatusLine("open a session first.", .error) }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("open")) { $0.overlay = .commandLine(TextField("open")) }
        h.enterCommand { $0.overlay = nil; $0.status = StatusLine("select a post first.", .error) }
    }

    func testMouseClicksTabsSelectsAndOpensRowsAndWheelScrolls() {
        let rows = [F.session("s1", "A", at: 3), F.session("s2", "B", at: 2), F.session("s3", "C", at: 1)]
        var h = ReducerHarness(F.main(sessions: rows))
        // The tab bar: " 1 Sessions  2 Post  3 You  4 Settings"
        h.send(.mouseUsed(MouseEvent(.click, column: 27, row: 0)), [.you(.loadIdentities)]) { $0.pane = .you }
        h.send(.mouseUsed(MouseEvent(.click, column: 3, row: 0))) { $0.pane = .sessions }
        h.send(.mouseUsed(MouseEvent(.wheelDown, column: 10, row: 5))) { $0.sessions.selection = 1 }
        h.send(.mouseUsed(MouseEvent(.wheelUp, column: 10, row: 5))) { $0.sessions.selection = 0 }
        // Rows start under the pane title; each session row is two lines high.
        let thirdRow = Layout.contentTop + 1 + 2 * Layout.sessionRowHeight
        h.send(.mouseUsed(MouseEvent(.click, column: 10, row: thirdRow))) { $0.sessions.selection = 2 }
        h.send(.mouseUsed(MouseEvent(.click, column: 10, row: thirdRow)), [.sessions(.loadFeed(sessionID: "s3", limit: 50))]) {
            var feed = SessionFeed(sessionID: "s3"); feed.summary = rows[2]
            $0.sessions.open = feed
        }
        // Clicks are ignored while an overlay is open.
        h.send(.keyPressed(.char("?"))) { $0.overlay = .help }
        h.send(.mouseUsed(MouseEvent(.click, column: 27, row: 0)))
    }

    /// Issue 16 (7): help closes on ? Esc q only; other keys still do what they do, help kept open.
    func testHelpClosesOnlyOnItsKeysAndDoesNotSwallowOthers() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("?"))) { $0.overlay = .help }
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        XCTAssertEqual(h.state.overlay, .help, "switching panes keeps the help, now for Settings")
        h.send(.keyPressed(.char("?"))) { $0.overlay = nil }
        h.send(.keyPressed(.char("?"))) { $0.overlay = .help }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
        h.send(.keyPressed(.char("?"))) { $0.overlay = .help }
        h.send(.keyPressed(.char("q"))) { $0.overlay = nil }
        h.send(.keyPressed(.char("?"))) { $0.overlay = .help }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
    }
}
