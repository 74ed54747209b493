import Foundation
import LinkstrDomain
import Logging
import NIOCore
import NostrProtocol

/// Publishing: the send gate, acknowledgement batches per relay, best-effort publishes.
extension RelayPool {
    // MARK: publishing

    /// Send gating (wire document §8.5, decided by `SendGate`): fails at once with no enabled or only
    /// read-only relays, otherwise waits up to `timeout` for a connected writable relay. The waiter is
    /// woken by the machine step that makes a relay writable (or the gate fail), not by polling.
    public func waitForWritableRelay(timeout: Duration = .seconds(12)) async -> PublishError? {
        switch SendGate.decide(Array(machines.values)) {
        case .ready: return nil
        case .fail(let error): return error
        case .wait: break
        }
        if stopped { return .offline }
        let id = UUID()
        let timer = Task { [weak self, sleep = configuration.time.sleep] in
            await sleep(timeout)
            if Task.isCancelled { return }
            await self?.settleGateWaiter(id, .reconnectTimeout)
        }
        let answer = await withCheckedContinuation { gateWaiters[id] = $0 }
        timer.cancel()
        return answer
    }

    private func settleGateWaiter(_ id: UUID, _ answer: PublishError?) {
        gateWaiters.removeValue(forKey: id)?.resume(returning: answer)
    }

    /// After every machine step: senders waiting at the gate go on once it opens (or fails).
    func wakeGateWaiters() {
        guard !gateWaiters.isEmpty else { return }
        let answer: PublishError?
        switch SendGate.decide(Array(machines.values)) {
        case .ready: answer = nil
        case .fail(let error): answer = error
        case .wait: return
        }
        let waiting = gateWaiters
        gateWaiters = [:]
        for w in waiting.values { w.resume(returning: answer) }
    }

    /// Sends `events` to every writable relay. Succeeds once each event was accepted by one relay, fails as
    /// soon as one was refused everywhere. With `everyRelay` (a best-effort step) it waits for every relay
    /// instead and always succeeds with what each one said (`refusedBy`), unless no relay could be asked.
    public func publish(_ events: [NostrEvent], timeout: Duration = .seconds(8), everyRelay: Bool = false) async -> Result<PublishReceipt, PublishError> {
        let targets = machines.values.filter(\.writable)
        guard !targets.isEmpty else { return .failure(.offline) }
        let texts = events.map { ClientMessage.event($0).encoded() }
        let sendable = targets.filter { r in texts.allSatisfy { r.accepts(messageBytes: $0.utf8.count) } }
        guard !sendable.isEmpty else { return .failure(.tooLarge) }
        let key = UUID()
        let pending = PendingPublish(tracker: PublishTracker(eventIDs: events.map(\.id), relays: Set(sendable.map(\.url))), events: events,
                                     everyRelay: everyRelay)
        publishes[key] = pending
        for relay in sendable {
            for text in texts { links[relay.url]?.connection?.send(text) }
            machines[relay.url]?.stats.eventsSent += texts.count
        }
        let timer = Task { [weak self, sleep = configuration.time.sleep] in
            await sleep(timeout)
            if Task.isCancelled { return }
            await self?.expire(key)
        }
        let result = await withCheckedContinuation { continuation in
            pending.continuation = continuation
            settlePublishes()
        }
        timer.cancel()
        return result
    }

    func expire(_ key: UUID) {
        guard let p = publishes.removeValue(forKey: key) else { return }
        p.continuation?.resume(returning: p.everyRelay ? .success(p.tracker.report(unanswered: "no answer in time.")) : .failure(.timeout))
        p.continuation = nil
    }

    func settlePublishes() {
        for (key, p) in publishes {
            let outcome: Result<PublishReceipt, PublishError>?
            if p.everyRelay {
                outcome = p.tracker.everyRelayAnswered ? .success(p.tracker.report(unanswered: "no answer.")) : nil
            } else {
                outcome = p.tracker.outcome
            }
            guard let outcome, let c = p.continuation else { continue }
            publishes[key] = nil
            p.continuation = nil
            c.resume(returning: outcome)
        }
    }

    func eventText(_ id: EventID) -> String? {
        for p in publishes.values { if let e = p.events.first(where: { $0.id == id }) { return ClientMessage.event(e).encoded() } }
        return nil
    }
}
