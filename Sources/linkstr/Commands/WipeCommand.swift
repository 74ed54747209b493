import ArgumentParser
import Foundation
import LinkstrStorage
import NostrProtocol

struct WipeCommand: LinkstrCommand {
    static let configuration = CommandConfiguration(
        commandName: "wipe", abstract: "Erase every identity and all linkstr data on this device (no network).",
        discussion: "Key files and the database's data keys are overwritten first, so an earlier copy of the database cannot be opened either. Only linkstr's own files are removed (then the directories they leave empty); anything else in the data directory is left and named. Asks for the word `wipe`, or --yes for scripts.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Yes, erase everything without asking.") var yes = false

    func execute() async throws {
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else { throw CLIError("this erases every identity and all linkstr data here; add --yes if you mean it.", .usage) }
            FileHandle.standardError.write(Data("type wipe to erase every identity and all linkstr data on this device: ".utf8))
            guard readLine()?.trimmingCharacters(in: .whitespaces) == "wipe" else { throw CLIError("nothing was erased.") }
        }
        let report = try Wipe.run(DataPaths.resolve(home: global.home))
        if global.json {
            printLine(Output.json(.object(JSONObject([("identities", .integer(Int64(report.identities))),
                                                      ("kept", .array(report.kept.map { .string($0) }))]))))
            return
        }
        printLine("wiped: \(report.identities) identit\(report.identities == 1 ? "y" : "ies") and all local data.")
        if !report.kept.isEmpty {
            // Only linkstr's own files go; the rest is named so nobody wonders where it went.
            let shown = report.kept.prefix(5).joined(separator: ", ") + (report.kept.count > 5 ? ", …" : "")
            printLine("left alone (not linkstr's): \(report.kept.count) item\(report.kept.count == 1 ? "" : "s"): \(shown)")
        }
    }
}
