import ArgumentParser
import Foundation
import LinkstrLogging
import LinkstrStorage
import Logging
import NostrProtocol

/// An error for people: printed as `linkstr: <message>` on stderr, with its exit status (1 unless told).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    var status = ExitStatus.failure
    init(_ message: String) { description = message }
}

/// Commands implement `execute`; `run` turns any error into one plain line on stderr and exit code 1.
protocol LinkstrCommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
    func execute() async throws
    /// Commands that only read may run beside another linkstr on the same data directory (SQLite's
    /// WAL lets them); the others take the directory's lock, waiting up to two seconds for it.
    static var readsOnly: Bool { get }
}

extension LinkstrCommand {
    static var readsOnly: Bool { false }

    func run() async throws {
        global.startLogging(DataPaths.resolve(home: global.home))
        let log = LinkstrLogging.logger("cli")
        let name = Self._commandName
        do {
            let lock = Self.readsOnly ? nil : try DataLock.acquire(DataPaths.resolve(home: global.home), wait: 2)
            defer { lock?.release() }
            defer { Self.sayDamagedRows() }
            try await execute()
            if global.json, !Output.madeDocument.load(ordering: .relaxed) { printLine(Output.json(.object(JSONObject([("ok", .bool(true))])))) }
            log.info("command finished", metadata: ["command": "\(name)"])
        } catch let e as ExitCode {
            throw e
        } catch let e as CleanExit {
            throw e
        } catch {
            // The kind of error only: its words may quote what was typed.
            log.notice("command failed", metadata: ["command": "\(name)", "error": "\(type(of: error))"])
            FileHandle.standardError.write(Data("linkstr: \(String(describing: error))\n".utf8))
            throw ExitCode(ExitStatus.of(error).rawValue)
        }
    }
}

extension LinkstrCommand {
    /// Records left out because they were damaged are said once, on stderr, so output stays parseable.
    static func sayDamagedRows() {
        let count = DamagedRows.seenByThisProcess.load(ordering: .relaxed)
        guard count > 0, _commandName != "repair" else { return }
        FileHandle.standardError.write(Data("linkstr: warning: \(DamagedRows.notice(count))\n".utf8))
    }
}

func printLine(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
func printError(_ text: String) { FileHandle.standardError.write(Data(("linkstr: " + text + "\n").utf8)) }
