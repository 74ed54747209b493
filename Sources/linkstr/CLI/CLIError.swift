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
    /// Commands whose only writes are caches that newest-wins keeps right whoever writes them (the
    /// doctor's relay lists): they take the lock when it is free and run beside the app when it is not.
    static var besideTheApp: Bool { get }
}

extension LinkstrCommand {
    static var readsOnly: Bool { false }
    static var besideTheApp: Bool { false }

    /// The directory's lock, waited for up to two seconds; a command that can run beside the app goes on
    /// without it while another holds it.
    static func lock(_ paths: DataPaths) throws -> DataLock? {
        do {
            return try DataLock.acquire(paths, wait: besideTheApp ? 0 : 2)
        } catch {
            if besideTheApp, case .locked = error { return nil }
            throw error
        }
    }

    func run() async throws {
        global.startLogging(DataPaths.resolve(home: global.home))
        let log = LinkstrLogging.logger("cli")
        let name = Self._commandName
        do {
            let lock = try Self.readsOnly ? nil : Self.lock(DataPaths.resolve(home: global.home))
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
