import Foundation
import LinkstrDomain
import Logging
import NIOCore
import NostrProtocol

/// Subscriptions: kept here and sent again on every connect, limits clamped to each relay's NIP-11.
extension RelayPool {
    // MARK: subscriptions

    /// Installs (or replaces) a subscription on the given relays (all when nil), now and on every reconnect.
    public func subscribe(_ id: String, filters: [Filter], relays only: Set<String>? = nil) {
        subscriptions[id] = Subscription(filters: filters, relays: only)
        for url in machines.keys where only?.contains(url) ?? true && links[url]?.connection != nil { sendREQ(id, filters, to: url) }
    }

    public func unsubscribe(_ id: String, relays only: Set<String>? = nil) {
        guard let sub = subscriptions[id] else { return }
        if let only, let current = sub.relays {
            let remaining = current.subtracting(only)
            subscriptions[id] = remaining.isEmpty ? nil : Subscription(filters: sub.filters, relays: remaining)
        } else {
            subscriptions[id] = nil
        }
        for url in machines.keys where only?.contains(url) ?? true {
            links[url]?.connection?.send(ClientMessage.close(subscriptionID: id).encoded())
        }
    }

    func resubscribe(_ id: String, _ filters: [Filter], _ url: String) {
        guard subscriptions[id] != nil else { return }
        sendREQ(id, filters, to: url)
    }

    func reqText(_ id: String, _ url: String) -> String? {
        guard let sub = subscriptions[id], let machine = machines[url] else { return nil }
        return ClientMessage.req(subscriptionID: id, filters: machine.clamped(sub.filters)).encoded()
    }

    func sendREQ(_ id: String, _ filters: [Filter], to url: String) {
        guard let machine = machines[url] else { return }
        links[url]?.connection?.send(ClientMessage.req(subscriptionID: id, filters: machine.clamped(filters)).encoded())
    }

    /// The `limit` a relay will honour for `wanted` (its NIP-11 `max_limit`).
    public func effectiveLimit(_ wanted: Int, relay url: String) -> Int { machines[url]?.information?.clampedLimit(wanted) ?? wanted }
}
