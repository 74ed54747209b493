import ArgumentParser

@main
struct Linkstr: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linkstr",
        abstract: "A private link feed for people you trust, over NIP-59 gift-wrapped Nostr events.",
        discussion: "Without a command, opens the terminal app.",
        subcommands: [IdentityCommand.self, LogoutCommand.self, AccountCommand.self, ContactsCommand.self, RelaysCommand.self,
                      SessionCommand.self, PostCommand.self, PostsCommand.self, ReactCommand.self, DeleteCommand.self,
                      ReadCommand.self, SyncCommand.self, OpenCommand.self]
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        print(Linkstr.helpMessage())
    }
}
