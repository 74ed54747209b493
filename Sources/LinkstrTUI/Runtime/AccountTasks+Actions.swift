import LinkstrApp
import LinkstrClient

extension AccountTasks {
    /// Starts `work`, whose answers reach `dispatch` only while the account that started it is open.
    func start(_ dispatch: @escaping @Sendable (AppAction) -> Void,
               _ work: @escaping @Sendable (_ answer: @escaping @Sendable (AppAction) -> Void) async -> Void) {
        start { deliver in
            await work { action in deliver { dispatch(action) } }
        }
    }

    /// `dispatch`, for answers that must reach the app only while the account open now is.
    func guarded(_ dispatch: @escaping @Sendable (AppAction) -> Void) -> @Sendable (AppAction) -> Void {
        let deliver = deliverer()
        return { action in deliver { dispatch(action) } }
    }
}
