import LinkstrApp
import LinkstrClient
import LinkstrDomain

/// The send queue's items from the app: retried now, or taken out.
extension EffectRunner {
    func runSendQueue(_ effect: AppEffect) throws {
        guard let account else { return }
        let search = self.search
        switch effect {
        case .post(.retrySend(let item)):
            startAccountTask { answer in
                do { answer(.post(.sendRetried(try await account.retryQueued(item)))) } catch { answer(.failed(.unexpected, ClientError(error))) }
            }
        case .post(.cancelSend(let item)):
            startAccountTask { answer in
                do {
                    let send = try await account.cancelQueued(item)
                    search?.invalidate([send.sessionID])
                    answer(.post(.sendCancelled(action: send.action, postID: send.postID, sessionID: send.sessionID)))
                } catch { answer(.failed(.unexpected, ClientError(error))) }
            }
        default:
            assertionFailure("\(effect) is not a send-queue effect")
        }
    }
}
