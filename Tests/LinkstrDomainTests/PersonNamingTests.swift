import LinkstrDomain
import XCTest

/// Issue 32 (6): a stranger's kind 0 `{"name":"Pete"}`, Pete being your alias for a real contact, made
/// their request and posts read "from Pete". Aliases and self-chosen names now look different, and a
/// self-chosen name that copies one of your people's is marked.
final class PersonNamingTests: XCTestCase {
    let me = String(repeating: "0a", count: 32), pete = String(repeating: "1b", count: 32)
    let stranger = String(repeating: "2c", count: 32), ann = String(repeating: "3d", count: 32), bob = String(repeating: "4e", count: 32)

    func testAliasesProfileNamesAndImpostors() {
        let naming = PersonNaming(me: me, contacts: [(pete, "Pete"), (ann, nil)],
                                  profileNames: [me: "Me", pete: "peter", stranger: "Pete", ann: "Ann", bob: "ANN", String(repeating: "6a", count: 32): "Zed\u{1B}]52;c;x\u{07}"])
        XCTAssertEqual(naming.name(me), "you")
        XCTAssertEqual(naming.name(pete), "Pete", "your alias, as you typed it")
        XCTAssertEqual(naming.name(ann), "~Ann", "a contact's own name is marked as theirs")
        XCTAssertEqual(naming.name(stranger), "~Pete (not your Pete)", "a stranger using your alias for someone")
        XCTAssertEqual(naming.name(bob), "~ANN (not your ANN)", "a stranger copying a contact's own name, case aside")
        let zed = naming.name(String(repeating: "6a", count: 32))
        XCTAssertTrue(zed.hasPrefix("~Zed") && !zed.contains("\u{1B}") && !zed.contains("\u{07}"), zed)
        let nameless = String(repeating: "5f", count: 32)
        XCTAssertEqual(naming.name(nameless), AccountState.shortNpub(nameless), "no name: a short npub")
    }

    func testAContactMayShareANameWithAnotherContactsOwnNameButNotWithAnAlias() {
        let naming = PersonNaming(me: me, contacts: [(pete, "Pete"), (ann, nil), (bob, nil)],
                                  profileNames: [ann: "Ann", bob: "Pete"])
        XCTAssertEqual(naming.name(ann), "~Ann")
        XCTAssertEqual(naming.name(bob), "~Pete (not your Pete)", "even a contact cannot look like your alias for another")
        XCTAssertTrue(naming.isImpostor(stranger, " pété "), "accents, case and blanks aside")
        XCTAssertFalse(naming.isImpostor(pete, "Pete"), "your Pete calling himself Pete is no impostor")
    }
}
