import LinkstrApp
import LinkstrClient
import LinkstrDomain

/// Settings' blocked relays: read, block, unblock (the same use cases as `linkstr relays block`), and a
/// newer list from another client taken in (the pool drops a relay blocked there).
extension EffectRunner {
    func runBlockedRelays(_ effect: AppEffect) throws {
        guard let actions else { return }
        switch effect {
        case .settings(.loadBlockedRelays):
            let record = try actions.store.blockedRelayRecord()
            dispatch(.settings(.blockedRelaysLoaded(record?.relays ?? [], pending: record?.pending ?? false)))
        case .settings(.blockRelay(let url)):
            let ours = relays.entries.map(\.url), now = self.now
            startAccountTask { answer in
                do {
                    let edit = try await actions.blockRelay(url, ours: ours, now: now)
                    answer(.settings(.blockedRelayEdited(url: edit.relay ?? url, blocked: true, note: edit.note)))
                } catch {
                    answer(.failed(.blockedRelays, ClientError(error)))
                }
            }
        case .settings(.unblockRelay(let url)):
            let now = self.now
            startAccountTask { answer in
                do {
                    let edit = try await actions.unblockRelay(url, now: now)
                    answer(.settings(.blockedRelayEdited(url: edit.relay ?? url, blocked: false, note: edit.note)))
                } catch {
                    answer(.failed(.blockedRelays, ClientError(error)))
                }
            }
        default:
            assertionFailure("\(effect) is not a blocked-relays effect")
        }
    }

    /// Another client edited our blocked relays: the pool takes the list again (a relay blocked there is
    /// dropped), and the view, if open, is read again.
    func ownListsChanged(of session: AccountSession) async {
        guard account === session else { return }
        await session.applyRelays()
        dispatch(.settings(.relaysChanged(relayRows())))
        do { try runBlockedRelays(.settings(.loadBlockedRelays)) } catch { dispatch(.failed(.blockedRelays, ClientError(error))) }
    }
}
