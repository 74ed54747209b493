import Dispatch
import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol

/// Protocol core: primitives, and fully checked unwraps side by side with rust-nostr.
enum ProtocolBench {
    static func run(wrapCount: Int) throws {
        let senderCount = 20

        func measure(_ label: String, operations: Int, minimumSeconds: Double = 1.0, _ body: (Int) -> Void) -> Double {
            // Repeat the workload until it has run long enough to time reliably.
            var rounds = 0
            let start = DispatchTime.now().uptimeNanoseconds
            var elapsed = 0.0
            repeat {
                body(rounds)
                rounds += 1
                elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            } while elapsed < minimumSeconds
            let rate = Double(operations * rounds) / elapsed
            report(label, rate)
            return rate
        }

        func report(_ label: String, _ rate: Double) {
            let padded = label.padding(toLength: 46, withPad: " ", startingAt: 0)
            let number = String(format: "%.0f", rate)
            print("  \(padded)\(String(repeating: " ", count: max(0, 10 - number.count)))\(number) /s")
        }

        func format(_ v: Double) -> String { String(format: "%.0f", v) }

        print("linkstr-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(wrapCount) wraps from \(senderCount) senders")

        // MARK: fixtures

        let random = SeededRandom(seed: 0xB16_B00B5)
        let recipient = SecretKey.generate(using: random)
        let senders = (0..<senderCount).map { _ in SecretKey.generate(using: random) }
        let senderCaches = senders.map { ConversationKeyCache(secretKey: $0, capacity: 4) }
        let now: Int64 = 1_795_000_000

        func linkstrPayload(_ i: Int) -> String {
            #"{"conversation_id":"3F2504E04F8911D39A0C0305E82C3301","root_id":"","kind":"root","url":"https:\/\/www.youtube.com\/watch?v=dQw4w9WgXcQ&i=\#(i)","note":"watch this one, it is the best of the week \#(i)","timestamp":\#(now + Int64(i))}"#
        }

        let setupStart = Date()
        let wrapJSON: [String] = try (0..<wrapCount).map { i in
            let s = i % senderCount
            let rumor = UnsignedEvent(pubkey: senders[s].publicKey, createdAt: now + Int64(i), kind: 44001, content: linkstrPayload(i))
            return try NIP59.giftWrap(rumor: rumor, sender: senders[s], recipient: recipient.publicKey, now: now, random: random,
                                      cache: senderCaches[s]).jsonString()
        }
        print(String(format: "  (built %d wraps in %.1f s)", wrapCount, Date().timeIntervalSince(setupStart)))

        // MARK: primitives

        print("primitives")
        let events = try wrapJSON.prefix(2000).map { try NostrEvent(json: $0) }
        let verifyRate = measure("schnorr verify", operations: events.count) { _ in
            for e in events { precondition(Schnorr.verify(signature: e.sig, message: e.id.raw, publicKey: e.pubkey)) }
        }
        let peers = events.prefix(500).map(\.pubkey)
        let ecdhRate = measure("ECDH (x-only, unhashed)", operations: peers.count) { _ in
            for p in peers { _ = try! ECDH.sharedX(secret: recipient, publicKey: p) }
        }
        let conversation = try NIP44.conversationKey(secretKey: recipient, publicKey: senders[0].publicKey)
        let kib = String(repeating: "linkstr!", count: 128)
        let kibPayloads = try (0..<200).map { _ in try NIP44.encrypt(kib, conversationKey: conversation, random: random) }
        let decryptRate = measure("NIP-44 decrypt, 1 KiB", operations: kibPayloads.count) { _ in
            for p in kibPayloads { precondition(try! NIP44.decrypt(p, conversationKey: conversation).utf8.count == 1024) }
        }
        // What the store does for every sealed column it reads (a list row opens five).
        let fieldKey = [UInt8](repeating: 7, count: 32), fieldNonce = [UInt8](repeating: 9, count: 12)
        let fieldAAD = Array("sessions.name|\(senders[0].publicKey.hex)|\(senders[1].publicKey.hex)".utf8)
        let sealedField = try fieldKey.withUnsafeBytes { k in
            try fieldNonce.withUnsafeBytes { n in
                try Array("a session name of some length".utf8).withUnsafeBytes { p in
                    try fieldAAD.withUnsafeBytes { a in try ChaCha20Poly1305.seal(key: k, nonce12: n, plaintext: p, aad: a) }
                }
            }
        }
        _ = measure("ChaCha20-Poly1305 open, 30-byte field", operations: 10_000) { _ in
            fieldKey.withUnsafeBytes { k in
                fieldNonce.withUnsafeBytes { n in
                    sealedField.withUnsafeBytes { c in
                        fieldAAD.withUnsafeBytes { a in
                            for _ in 0..<10_000 { precondition(try! ChaCha20Poly1305.open(key: k, nonce12: n, sealed: c, aad: a).count == 29) }
                        }
                    }
                }
            }
        }
        _ = measure("SHA-256 event id (wrap)", operations: events.count) { _ in
            for e in events { precondition(e.unsigned.id == e.id) }
        }

        // MARK: unwrap

        /// What a client does per gift wrap it receives: parse the relay JSON, check the wrap id and
        /// signature, decrypt, check the seal id, signature and kind, decrypt, check the rumor id and author.
        @Sendable func unwrapAll(_ range: Range<Int>, cache: ConversationKeyCache, wrapJSON: [String]) -> Int {
            var ok = 0
            for i in range {
                let event = try! NostrEvent(json: wrapJSON[i])
                let gift = try! NIP59.unwrap(event, recipient: recipient, cache: cache)
                if gift.rumor.kind == 44001 { ok += 1 }
            }
            return ok
        }

        print("gift-wrap unwrap (fully checked, from relay JSON), \(wrapCount) wraps")
        let coldCache = ConversationKeyCache(secretKey: recipient)
        let coldStart = DispatchTime.now().uptimeNanoseconds
        precondition(unwrapAll(0..<wrapCount, cache: coldCache, wrapJSON: wrapJSON) == wrapCount)
        let coldRate = Double(wrapCount) / (Double(DispatchTime.now().uptimeNanoseconds - coldStart) / 1e9)
        report("1 core, first pass (cache cold)", coldRate)

        let oneCoreRate = measure("1 core, no conversation-key cache", operations: wrapCount) { _ in
            for i in 0..<wrapCount {
                let event = try! NostrEvent(json: wrapJSON[i])
                _ = try! NIP59.unwrap(event, recipient: recipient, cache: nil)
            }
        }
        let cachedRate = measure("1 core, conversation-key cache", operations: wrapCount) { _ in
            precondition(unwrapAll(0..<wrapCount, cache: coldCache, wrapJSON: wrapJSON) == wrapCount)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parallelRate = measure("\(cores) cores, conversation-key cache", operations: wrapCount) { _ in
            let chunk = (wrapCount + cores - 1) / cores
            DispatchQueue.concurrentPerform(iterations: cores) { c in
                let range = (c * chunk)..<min(wrapCount, (c + 1) * chunk)
                precondition(unwrapAll(range, cache: coldCache, wrapJSON: wrapJSON) == range.count)
            }
        }
        // What an unwrap cannot avoid: the wrap's and the seal's verifies and the one-time key's ECDH (the
        // seal's ECDH is cached per sender, `ConversationKeyCache`).
        let floorRate = 1 / (2 / verifyRate + 1 / ecdhRate)
        report("libsecp256k1 floor (2 verifies + 1 ECDH)", floorRate)
        try stages(wrapJSON, recipient: recipient, cache: coldCache, perWrapTotal: 1 / cachedRate)
        try JunkUnwrapBench.run(recipient: recipient)

        // MARK: rust-nostr

        print("rust-nostr (nostr-sdk PyPI wheel) on the same \(wrapCount) wraps")
        var rustRate: Double?
        do {
            let python = try TestEnvironment.python()
            let request: [String: Any] = ["recipient_secret": recipient.revealHex(),
                                          "wraps": try wrapJSON.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }]
            let result = try ProcessRunner.run(python, [TestEnvironment.interopScript("rust_nostr_peer.py").path, "bench-unwrap"],
                                               stdin: try JSONSerialization.data(withJSONObject: request), timeout: 600)
            guard result.status == 0, let out = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
                  let seconds = out["seconds"] as? Double, let ok = out["ok"] as? Int else {
                throw ProcessRunner.Failure(description: result.stderrText)
            }
            precondition(ok == wrapCount, "rust-nostr opened \(ok) of \(wrapCount)")
            rustRate = Double(wrapCount) / seconds
            report("1 core (parse + verify + unwrap)", rustRate!)
        } catch {
            print("  unavailable: \(error) (scripts/bench creates the virtualenv)")
        }

        print("summary")
        print("  unwraps/s: linkstr \(format(cachedRate)) (1 core), \(format(parallelRate)) (\(cores) cores); rust-nostr \(rustRate.map(format) ?? "n/a")")
        if let rustRate {
            print(String(format: "  ratio linkstr/rust-nostr: %.2fx (1 core), %.2fx (%d cores)", cachedRate / rustRate, parallelRate / rustRate, cores))
        }
        print(String(format: "  linkstr 1-core unwrap at %.0f%% of the libsecp256k1 floor", 100 * cachedRate / floorRate))
        _ = oneCoreRate
        _ = decryptRate

    }

    /// Where one fully checked unwrap's time goes (1 core, conversation-key cache warm): each step of
    /// `NIP59.unwrap` timed alone over the same wraps, in microseconds per wrap.
    static func stages(_ wrapJSON: [String], recipient: SecretKey, cache: ConversationKeyCache, perWrapTotal: Double) throws {
        let n = wrapJSON.count
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(n)
        }
        var wraps = [NostrEvent](), seals = [NostrEvent](), sealBytes = [[UInt8]](), rumorBytes = [[UInt8]]()
        var rows = [(String, Double, Bool)]()
        rows.append(("parse the relay's JSON", try time { wraps = try wrapJSON.map { try NostrEvent(json: $0) } }, false))
        rows.append(("wrap id (serialise + SHA-256)", time { for w in wraps { precondition(w.unsigned.id == w.id) } }, false))
        var lifted = [LiftedPublicKey]()
        rows.append(("one-time key onto the curve (lift_x, once)", try time { lifted = try wraps.map { try LiftedPublicKey($0.pubkey) } }, true))
        rows.append(("wrap signature (Schnorr verify, key lifted)", time {
            for (w, key) in zip(wraps, lifted) { precondition(Schnorr.verify(signature: w.sig, message: w.id.raw, publicKey: key)) }
        }, true))
        var outer = [ConversationKey]()
        rows.append(("wrap key (ECDH + HKDF-extract)", try time { outer = try lifted.map { try NIP44.conversationKey(secretKey: recipient, publicKey: $0) } }, true))
        rows.append(("open the wrap (base64, keys, HMAC, ChaCha20)", try time { sealBytes = try zip(wraps, outer).map { try NIP44.decryptToBytes($0.content, conversationKey: $1) } }, false))
        rows.append(("parse the seal", try time { seals = try sealBytes.map { try NostrEvent(json: try JSONParser.parse($0)) } }, false))
        rows.append(("seal id (serialise + SHA-256)", time { for s in seals { precondition(s.unsigned.id == s.id) } }, false))
        rows.append(("seal signature (Schnorr verify, key cached)", try time {
            for s in seals {
                let signer = try cache.lifted(s.pubkey)
                precondition(Schnorr.verify(signature: s.sig, message: s.id.raw, publicKey: signer))
            }
        }, true))
        rows.append(("seal key (cached)", try time { for s in seals { _ = try cache.conversationKey(with: s.pubkey) } }, false))
        let inner = try seals.map { try cache.conversationKey(with: $0.pubkey) }
        rows.append(("open the seal (base64, keys, HMAC, ChaCha20)", try time { rumorBytes = try zip(seals, inner).map { try NIP44.decryptToBytes($0.content, conversationKey: $1) } }, false))
        rows.append(("parse the rumor + rumor id", try time {
            for (bytes, seal) in zip(rumorBytes, seals) {
                guard case .object(let o) = try JSONParser.parse(bytes), case .string(let content)? = o["content"] else { preconditionFailure() }
                _ = UnsignedEvent(pubkey: seal.pubkey, createdAt: 0, kind: 44001, tags: [], content: content).id
            }
        }, false))
        print("where one unwrap's time goes (1 core, cache warm), µs per wrap")
        var curve = 0.0, rest = 0.0
        for (label, us, isCurve) in rows {
            print("  " + label.padding(toLength: 46, withPad: " ", startingAt: 0) + String(format: "%8.1f", us) + (isCurve ? "  (curve)" : ""))
            if isCurve { curve += us } else { rest += us }
        }
        print("  " + "curve / everything else / whole unwrap".padding(toLength: 46, withPad: " ", startingAt: 0)
              + String(format: "%8.1f / %.1f / %.1f", curve, rest, perWrapTotal * 1e6))
        // After the unwrap, the sync decodes and checks the linkstr payload on the same core.
        let gifts = try wraps.map { try NIP59.unwrap($0, recipient: recipient, cache: cache) }
        let decode = time {
            for (gift, wrap) in zip(gifts, wraps) {
                guard case .success = InboundDecoder.decode(rumor: gift.rumor, rumorID: gift.rumorID, sender: gift.sender, wrapID: wrap.id.hex,
                                                            source: .historical, receivedAt: 0) else { preconditionFailure("a bench post did not decode") }
            }
        }
        print("  " + "then the linkstr payload (InboundDecoder)".padding(toLength: 46, withPad: " ", startingAt: 0) + String(format: "%8.1f", decode))
    }
}
