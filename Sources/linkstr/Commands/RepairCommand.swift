import ArgumentParser
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// Finds stored rows that no longer open (a damaged disk, an edited file) and drops them so the next
/// sync fetches them again; `--rebuild` starts an account whose data key is damaged afresh.
struct RepairCommand: LinkstrCommand {
    /// `--check` only reads (it works on a read-only home); a repair takes the lock itself.
    static let readsOnly = true
    static let configuration = CommandConfiguration(
        commandName: "repair", abstract: "Drop damaged local records so the next sync fetches them again (--check only looks).",
        discussion: "Reads every sealed value of the active account. Damaged records are left out of what linkstr shows; this drops them and marks what they came from as unread from relays, so `linkstr sync` brings back what relays still hold. With --check nothing changes and the exit code is 1 when damage was found. With --rebuild an account whose data key is damaged (nothing of it can be read) is cleared here, keeping the identity and the relay list.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Only report; exit 1 when damaged records were found.") var check = false
    @Flag(help: "Clear this account's local data when its data key is damaged (identity and relays kept).") var rebuild = false

    func execute() async throws {
        let lock = check ? nil : try DataLock.acquire(DataPaths.resolve(home: global.home), wait: 2)
        defer { lock?.release() }
        let ctx = try CLIContext(global)
        let key = try ctx.identity()
        let local = try ctx.device()
        if rebuild {
            guard try !local.dataKeyOpens(key) else {
                throw CLIError("this account's data key opens, so there is nothing to rebuild; `linkstr repair` drops damaged records.")
            }
            try local.rebuildAccount(key, now: ctx.now)
            print(rebuilt: true, report: AccountStore.DamageReport(), dropped: false)
            return
        }
        let account = try ctx.account()
        let report = check ? try account.reads.findDamagedRows() : try account.repairDamagedRows()
        print(rebuilt: false, report: report, dropped: !check && report.total > 0)
        if check && report.total > 0 { throw ExitCode.failure }
    }

    private func print(rebuilt: Bool, report: AccountStore.DamageReport, dropped: Bool) {
        if global.json {
            printLine(Output.json(.object(JSONObject([
                ("damaged", .object(JSONObject(report.rows.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))),
                ("total", .integer(Int64(report.total))), ("dropped", .bool(dropped)), ("rebuilt", .bool(rebuilt)),
                ("history_reread", .bool(report.historyReread)),
            ]))))
            return
        }
        if rebuilt { printLine("this account's local data was cleared (identity and relays kept); run `linkstr sync` to fetch it again."); return }
        guard report.total > 0 else { printLine("no damaged records."); return }
        let what = "\(report.total) damaged record\(report.total == 1 ? "" : "s") (\(report.summary))"
        if !dropped { printLine("\(what); `linkstr repair` drops them."); return }
        printLine("dropped \(what); run `linkstr sync` to fetch "
                  + (report.historyReread ? "the history again (every message is read once more)." : "them again."))
    }
}
