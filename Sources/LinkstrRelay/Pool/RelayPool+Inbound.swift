import Foundation
import LinkstrDomain
import Logging
import NIOCore
import NostrProtocol

/// What relays send: messages routed to the sync engine, junk counted, NIP-42 challenges answered.
extension RelayPool {
    // MARK: inbound

    func handle(_ url: String, _ generation: Int, _ event: WebSocketConnection.Event) {
        guard machines[url]?.generation == generation else { return }
        switch event {
        case .closed(let reason):
            failed(url, generation, reason ?? "connection closed")
        case .brokeProtocol(let reason):
            log.notice("relay broke the protocol", metadata: ["relay": "\(url)", "reason": "\(reason.prefix(160))"])
            let now = now, unit = unit
            step(url) { $0.brokeProtocol(generation: generation, reason: reason, now: now, unit: unit) }
        case .pong(let ms):
            machines[url]?.stats.latencyMilliseconds = ms
        case .text(let text):
            machines[url]?.stats.eventsReceived += 1
            let message: RelayMessage
            do { message = try RelayMessage.decode(text, limits: .init(maxBytes: configuration.maxMessageBytes)) } catch {
                machines[url]?.stats.invalidMessages += 1
                junk(url, 1)
                return
            }
            handle(url, message)
        }
    }

    /// Junk the pool itself saw (unparseable, unasked for), counted in bulk: one machine step per 50.
    func junk(_ url: String, _ count: Int) {
        poolJunk[url, default: 0] += count
        guard poolJunk[url, default: 0] >= 50 else { return }
        let seen = poolJunk.removeValue(forKey: url) ?? 0
        eventsChecked(relay: url, valid: 0, junk: seen)
    }

    /// The sync engine checked events from `relay` (signatures, decryption): `junk` of them failed. A
    /// relay whose traffic is mostly junk is dropped with a long backoff (`RelayMachine.eventsChecked`).
    public func eventsChecked(relay url: String, valid: Int, junk count: Int) {
        let now = now, unit = unit
        step(url) { $0.eventsChecked(valid: valid, junk: count, now: now, unit: unit) }
    }

    /// True while `relay` is dropped for junk: what is still queued from it is not worth checking.
    public nonisolated func isDroppedForJunk(_ url: String) -> Bool { dropped.withLock { $0.contains(url) } }

    func handle(_ url: String, _ message: RelayMessage) {
        switch message {
        case .event(let sub, let event):
            // Only what we asked for: a relay cannot push unrelated events into a subscription.
            guard let s = subscriptions[sub], s.filters.contains(where: { $0.matches(event) }) else {
                machines[url]?.stats.invalidMessages += 1
                junk(url, 1)
                return
            }
            sink.yield(.event(relay: url, subscription: sub, event))
        case .eose(let sub):
            sink.yield(.eose(relay: url, subscription: sub))
        case .closed(let sub, let m):
            if m.prefix == .authRequired, let text = reqText(sub, url), var machine = machines[url],
               let actions = machine.refusedForAuth(key: "REQ " + sub, resend: text, canSign: authSigner != nil, now: now, unit: unit) {
                machines[url] = machine
                perform(actions, url)
                return
            }
            if m.prefix == .rateLimited, let s = subscriptions[sub] {
                // Ask again later, once.
                Task { [weak self, sleep = configuration.time.sleep] in
                    await sleep(.seconds(10))
                    await self?.resubscribe(sub, s.filters, url)
                }
            }
            sink.yield(.closed(relay: url, subscription: sub, m))
        case .ok(let id, let accepted, let m):
            if machines[url]?.auth.pendingEventID == id {
                step(url) { $0.authAnswered(id, accepted: accepted, message: m) }
                return
            }
            if !accepted, m.prefix == .authRequired, let text = eventText(id), var machine = machines[url],
               let actions = machine.refusedForAuth(key: "EVENT " + id.hex, resend: text, canSign: authSigner != nil, now: now, unit: unit) {
                machines[url] = machine
                perform(actions, url)
                return
            }
            if !accepted, m.prefix == .restricted || m.prefix == .authRequired { step(url) { $0.writeRefused(m) } }
            for p in publishes.values { p.tracker.ok(relay: url, eventID: id, accepted: accepted, message: m) }
            settlePublishes()
        case .auth(let challenge):
            // Our subscriptions already name our key in `#p`, so answering a challenge reveals nothing new.
            let (now, unit) = (now, unit)
            step(url) { $0.challenged(challenge, now: now, unit: unit) }
        case .notice(let text):
            // Some relays refuse a REQ with a NOTICE instead of CLOSED; authenticate if we can.
            let m = RelayStatusMessage(text)
            if m.prefix == .authRequired || m.prefix == .restricted {
                let (now, unit) = (now, unit)
                step(url) { $0.noticeAsksForAuth(now: now, unit: unit) }
            }
            sink.yield(.notice(relay: url, text))
        case .count:
            break
        case .negMsg(let sub, let message):
            negentropyAnswered(url, sub, .message(message))
        case .negErr(let sub, let reason):
            negentropyRefused(url, sub, reason)
        }
    }

    // MARK: NIP-42

    func authenticate(_ url: String, _ challenge: String) {
        guard let signer = authSigner, let event = signer(url, challenge) else { return }
        let now = now
        step(url) { $0.authSent(event.id, challenge: challenge, now: now) }
        log.debug("AUTH sent", metadata: ["relay": "\(url)", "auths": "\(machines[url]?.stats.authsSent ?? 0)"])
        links[url]?.connection?.send(ClientMessage.auth(event).encoded())
    }
}
