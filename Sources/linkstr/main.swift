import ArgumentParser
import NostrProtocol

@main
struct Linkstr: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linkstr",
        abstract: "A private link feed for people you trust, over NIP-59 gift-wrapped Nostr events."
    )
    func run() throws {
        print(Linkstr.helpMessage())
    }
}
