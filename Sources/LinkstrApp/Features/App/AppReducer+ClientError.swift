import LinkstrDomain

extension AppReducer {
    /// The one place a failure becomes words on screen: the failing layer's words when it gave some
    /// (the relay's refusal, the iOS app's send wordings), else what its kind means to the user.
    static func say(_ error: ClientError) -> String {
        guard error.detail.isEmpty else { return error.detail }
        switch error.kind {
        case .timeout: return "relays did not answer in time. try again."
        case .rejectedByRelays: return "relays refused it."
        case .notFound: return "that is no longer here."
        case .invalid: return "that is not valid."
        case .offline: return "you're offline. waiting for a relay connection."
        case .storage: return "the local data could not be read or written: nothing was changed."
        case .unexpected: return "something went wrong (the log has the details)."
        }
    }
}
