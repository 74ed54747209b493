import LinkstrApp
import LinkstrClient
import LinkstrDomain

/// Delivery: Settings' blocked relays (read, block, unblock: the use cases of `linkstr relays
/// block`), a newer list from another client taken in (the pool drops a relay blocked there), and
/// `:doctor`.
extension EffectRunner {
    func runDelivery(_ effect: AppEffect) throws {
        guard let actions else { return }
        switch effect {
        case .settings(.loadBlockedRelays):
            let record = try actions.blockedRelayRecord()
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
        case .settings(.loadInboxRelays):
            let (relays, chosen) = try actions.inboxRelays(ours: self.relays.enabledURLs)
            dispatch(.settings(.inboxRelaysLoaded(relays, chosen: chosen)))
        case .settings(.setInboxRelays(let relays)):
            startAccountTask { [weak self] answer in
                do {
                    let edit = try await actions.setInboxRelays(relays)
                    // The pool reads the chosen inbox relays too; the relay rows follow.
                    for action in await self?.applyRelays() ?? [] { answer(action) }
                    answer(.settings(.inboxRelaysSaved(note: edit.note)))
                } catch {
                    answer(.failed(.blockedRelays, ClientError(error)))
                }
            }
        case .settings(.runDoctor(let sid, let width)):
            let doctor = DeliveryDoctor(actions: actions)
            startAccountTask { answer in
                do {
                    let report = try await doctor.run(session: sid)
                    answer(.settings(.doctorReported(sessionID: sid, lines: report.lines(width: width, measure: DisplayWidth.of))))
                } catch {
                    answer(.failed(.doctor, ClientError(error)))
                }
            }
        default:
            assertionFailure("\(effect) is not a delivery effect")
        }
    }

    /// Another client edited our blocked relays: the pool takes the list again (a relay blocked there is
    /// dropped), and the view, if open, is read again.
    func ownListsChanged(of session: AccountSession) async {
        guard account === session else { return }
        await session.applyRelays()
        dispatch(.settings(.relaysChanged(relayRows())))
        do { try runDelivery(.settings(.loadBlockedRelays)) } catch { dispatch(.failed(.blockedRelays, ClientError(error))) }
    }
}
