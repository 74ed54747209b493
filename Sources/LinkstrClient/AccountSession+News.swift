import LinkstrDomain
import LinkstrStorage

extension AccountSession {
    /// What arrived, as the app announces it: only news the rule lets through (nothing from a stranger's
    /// session request), worded with `InboundNotification.headline` and named by the naming rule.
    public func headlines(_ notes: [InboundNotification], requests: SessionRequestPolicy) throws -> [String] {
        let shown = try actions(requests: requests).notifiable(notes)
        guard !shown.isEmpty else { return [] }
        let naming = try PersonNaming(store)
        return shown.map { $0.headline(naming: naming.name) }
    }
}
