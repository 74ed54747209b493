import LinkstrApp
import LinkstrClient
import LinkstrDomain
import Synchronization

/// Where the open account's hook runner is, once there is one: made at the start of sync when the
/// hooks are allowed on this account, or later at the user's yes; read by the updates' task.
final class HookSlot: Sendable {
    private let held = Mutex<HookRunner?>(nil)
    var runner: HookRunner? { held.withLock { $0 } }
    func set(_ runner: HookRunner?) { held.withLock { $0 = runner } }
}

/// Hooks in the app: the same runner and rules as `linkstr sync --follow`; hooks that
/// are new or changed since the user's last yes ask first (a config edited by someone else must not
/// silently gain a command); what a hook could not do goes to the status line and `:messages`.
extension EffectRunner {
    /// At the start of sync: the runner when these hooks are allowed here, else the question.
    func prepareHooks(_ account: AccountSession) {
        let hooks = options.hooks
        guard hooks.enabled, !hooks.isEmpty else { return }
        do {
            if try account.hooksTrusted(hooks) {
                accountView.hooks.set(makeHookRunner(account))
            } else {
                let lines = HookSettings.Kind.allCases.compactMap { kind in hooks.commands[kind].map { "\(kind.rawValue) = \($0.joined(separator: " "))" } }
                dispatch(.settings(.hooksNeedConsent(lines)))
            }
        } catch {
            dispatch(.failed(.unexpected, ClientError(error)))
        }
    }

    /// The user's yes: kept for this account, and the hooks run from now.
    func allowHooks() throws {
        guard let account else { return }
        try account.trustHooks(options.hooks)
        accountView.hooks.set(makeHookRunner(account))
    }

    private func makeHookRunner(_ account: AccountSession) -> HookRunner {
        let dispatch = account.tasks.guarded(self.dispatch)
        return HookRunner(settings: options.hooks) { dispatch(.settings(.hookSaid($0))) }
    }
}
