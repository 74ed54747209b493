import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Feeds random and mutated relay messages, events, NIP-44 payloads and gift wraps to the decoders
/// and openers. Every input must end in success or a typed error: no trap, no hang. The decoders use
/// typed throws, so the compiler itself proves that each failure is one of their error enums.
final class HostileInputFuzzTests: XCTestCase {
    private var rng = SplitMix(seed: 0x6C69_6E6B_7374_72)

    func testOneHundredThousandHostileInputs() throws {
        let recipient = SecretKey(uncheckedSeed: 7), sender = SecretKey(uncheckedSeed: 8)
        let cache = ConversationKeyCache(secretKey: recipient)
        let ck = try NIP44.conversationKey(secretKey: sender, publicKey: recipient.publicKey)

        // Seeds: genuine messages of every type, so mutations start close to valid.
        var seeds: [String] = []
        var wraps: [NostrEvent] = []
        for i in 0..<20 {
            let payload = #"{"conversation_id":"ABC\#(i)","root_id":"","kind":"root","url":"https:\/\/e.com\/\#(i)","timestamp":\#(i)}"#
            let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: Int64(1_795_000_000 + i), kind: 44001, content: payload)
            let wrap = try NIP59.giftWrap(rumor: rumor, sender: sender, recipient: recipient.publicKey, now: 1_795_000_000)
            wraps.append(wrap)
            seeds.append(RelayMessage.event(subscriptionID: "linkstr-giftwrap", event: wrap).encoded())
        }
        seeds += [#"["OK","\#(wraps[0].id.hex)",false,"auth-required: x"]"#, #"["EOSE","s"]"#, #"["CLOSED","s","restricted: no"]"#,
                  #"["NOTICE","n"]"#, #"["AUTH","c"]"#, #"["COUNT","c",{"count":1}]"#,
                  ClientMessage.req(subscriptionID: "s", filters: [Filter(kinds: [1059], tags: ["p": ["a"]], since: 1, limit: 5)]).encoded()]

        let rumorOf = try Dictionary(uniqueKeysWithValues: wraps.map { ($0.id, try NIP59.unwrap($0, recipient: recipient).rumorID) })
        var counts = [String: Int]()
        func record(_ outcome: String) { counts[outcome, default: 0] += 1 }

        let start = Date()
        for i in 0..<100_000 {
            let input: [UInt8]
            switch i % 4 {
            case 0: input = randomJSONish()
            default: input = mutate(Array(seeds[Int(rng.next() % UInt64(seeds.count))].utf8))
            }
            let text = String(decoding: input, as: UTF8.self)
            do {
                let message = try RelayMessage.decode(text)
                record("relay-ok")
                if case .event(_, let event) = message {
                    do {
                        let gift = try NIP59.unwrap(event, recipient: recipient, cache: cache)
                        // What opens must be a seed's wrap, unchanged: its id, rumor and signature.
                        XCTAssertEqual(rumorOf[event.id], gift.rumorID, "a changed gift wrap opened")
                        XCTAssertEqual(event.sig, wraps.first { $0.id == event.id }?.sig, "a gift wrap with a changed signature opened")
                        record("unwrap-ok")
                    } catch {
                        record("unwrap-\(String(describing: error).prefix(12))")
                    }
                }
            } catch { record("relay-err-\(String(describing: error).prefix(10))") }
            do { _ = try ClientMessage.decode(text); record("client-ok") } catch { record("client-err") }
            do { _ = try NIP44.decrypt(text, conversationKey: ck); record("nip44-ok") } catch { record("nip44-err") }
        }

        // NIP-44 payloads close to valid: mutated genuine ciphertexts.
        let genuine = try (0..<10).map { try NIP44.encrypt("payload \($0) " + String(repeating: "x", count: $0 * 50), conversationKey: ck, random: SeededRandom(seed: UInt64($0))) }
        for _ in 0..<20_000 {
            let original = genuine[Int(rng.next() % 10)]
            let text = String(decoding: mutate(Array(original.utf8)), as: UTF8.self)
            do {
                _ = try NIP44.decrypt(text, conversationKey: ck)
                // Only a mutation that changed nothing (a zero-length cut, a byte replaced by itself) may open.
                XCTAssertEqual(text, original, "a changed NIP-44 payload was accepted")
                record("nip44-mutated-ok")
            } catch {
                record("nip44-mutated-\(String(describing: error).prefix(14))")
            }
        }

        // Deep layers: valid outer signatures around corrupted seals and rumors, so every check inside runs.
        let random = SeededRandom(seed: 99)
        for i in 0..<2_000 {
            let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 44001, content: "x\(i)")
            var sealJSON = Array(try NIP59.seal(rumor: rumor, sender: sender, recipient: recipient.publicKey, now: 1, random: random).jsonString().utf8)
            if i % 2 == 0 { sealJSON = mutate(sealJSON) } else {
                var rumorJSON = Array(rumor.rumorJSON().utf8)
                rumorJSON = mutate(rumorJSON)
                let content = (try? NIP44.encrypt(String(decoding: rumorJSON, as: UTF8.self), conversationKey: ck, random: random)) ?? "x"
                sealJSON = Array(UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 13, content: content).signed(with: sender, random: random).jsonString().utf8)
            }
            let oneTime = SecretKey.generate(using: random)
            let outer = try NIP44.conversationKey(secretKey: oneTime, publicKey: recipient.publicKey)
            guard let content = try? NIP44.encrypt(String(decoding: sealJSON, as: UTF8.self), conversationKey: outer, random: random) else {
                record("deep-unencryptable"); continue
            }
            let wrap = UnsignedEvent(pubkey: oneTime.publicKey, createdAt: 1, kind: 1059, tags: [["p", recipient.publicKey.hex]], content: content)
                .signed(with: oneTime, random: random)
            do { _ = try NIP59.unwrap(wrap, recipient: recipient, cache: cache); record("deep-ok") } catch {
                record("deep-\(String(describing: error).prefix(14))")
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print("hostile inputs: 100000 fuzzed messages + 20000 mutated NIP-44 payloads + 2000 deep wraps in \(String(format: "%.1f", seconds)) s; outcomes: \(counts.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(counts.filter { $0.key.hasPrefix("deep-") && $0.key != "deep-ok" }.count, 3, "deep mutations should reach several distinct checks")
        XCTAssertGreaterThan(counts["relay-ok", default: 0], 100, "some mutations stay valid messages")
        XCTAssertGreaterThan(counts.filter { $0.key.hasPrefix("nip44-mutated-") }.count, 3, "payload mutations should reach several distinct checks")
    }

    // MARK: generators

    private func randomJSONish() -> [UInt8] {
        let alphabet = Array(#"[]{}",:0123456789-+.eEtrufalsn\ "abcEVENTOKEOSECLOSEDAUTH"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF, 0xED, 0xA0]
        let n = Int(rng.next() % 200)
        return (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
    }

    private func mutate(_ input: [UInt8]) -> [UInt8] {
        var b = input
        let rounds = 1 + Int(rng.next() % 4)
        for _ in 0..<rounds where !b.isEmpty {
            let at = Int(rng.next() % UInt64(b.count))
            switch rng.next() % 7 {
            case 0: b[at] ^= UInt8(1 << (rng.next() % 8))
            case 1: b.remove(at: at)
            case 2: b.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
            case 3: b.removeSubrange(at..<min(b.count, at + Int(rng.next() % 16)))
            case 4: b.insert(contentsOf: Array(#"[{"x":[[[["#.utf8), at: at)
            case 5: b.replaceSubrange(at..<min(b.count, at + 1), with: Array("99999999999999999999999e99999".utf8))
            default: b[at] = [0x22, 0x5C, 0x7B, 0x5D, 0x2C, 0x3A][Int(rng.next() % 6)]
            }
        }
        return b
    }
}

extension SecretKey {
    init(uncheckedSeed: UInt64) {
        self = SecretKey.generate(using: SeededRandom(seed: uncheckedSeed))
    }
}
