import NostrProtocol
import Synchronization

/// Random AEAD nonces drawn 4 KiB at a time. A nonce is public and must only never repeat under one
/// key; asking the system generator for 12 bytes at each sealed field cost as much as the sealing
/// itself (a cold sync seals three fields a post). Bytes leave the buffer once and are not reused.
final class NoncePool: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var next = 0
    }
    private let random: any RandomSource
    private let state = Mutex(State())
    private static let refill = 4096

    init(random: any RandomSource) { self.random = random }

    func nonce12() -> [UInt8] {
        state.withLock { s in
            if s.next + 12 > s.bytes.count {
                s.bytes = random.bytes(Self.refill)
                s.next = 0
            }
            defer { s.next += 12 }
            return Array(s.bytes[s.next..<s.next + 12])
        }
    }
}
