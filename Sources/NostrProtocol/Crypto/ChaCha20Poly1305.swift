import COpenSSL

/// RFC 8439 AEAD through OpenSSL, and the XChaCha20 variant (HChaCha20 subkey) that NIP-49 uses.
public enum ChaCha20Poly1305 {
    public static let tagLength = 16

    /// Returns ciphertext || 16-byte tag, after `front` zero bytes the caller fills in (a header of its
    /// own, written into the same array).
    public static func seal(key: UnsafeRawBufferPointer, nonce12: UnsafeRawBufferPointer,
                            plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer, front: Int = 0) throws -> [UInt8] {
        guard key.count == 32, nonce12.count == 12 else { throw CryptoError.invalidInput("AEAD key or nonce has the wrong length") }
        guard plaintext.count < Int(Int32.max) - 64, aad.count < Int(Int32.max), front >= 0 else { throw CryptoError.invalidInput("AEAD input too large") }
        return try AEADContexts.with(sealing: true) { ctx, new, spoiled in
            guard EVP_EncryptInit_ex2(ctx, new ? OpenSSLAlgorithms.shared.chacha20Poly1305 : nil, ptr(key), ptr(nonce12), nil) == 1 else {
                throw CryptoError.openSSL("AEAD init")
            }
            var outLength: Int32 = 0
            if aad.count > 0 {
                guard EVP_EncryptUpdate(ctx, nil, &outLength, ptr(aad), Int32(aad.count)) == 1 else { throw CryptoError.openSSL("AEAD aad") }
            }
            var out = [UInt8](repeating: 0, count: front + plaintext.count + tagLength)
            try out.withUnsafeMutableBufferPointer { all in
                let o = all.baseAddress! + front
                var written = 0
                if plaintext.count > 0 {
                    guard EVP_EncryptUpdate(ctx, o, &outLength, ptr(plaintext), Int32(plaintext.count)) == 1 else {
                        throw CryptoError.openSSL("AEAD encrypt")
                    }
                    written = Int(outLength)
                }
                guard EVP_EncryptFinal_ex(ctx, o + written, &outLength) == 1 else { throw CryptoError.openSSL("AEAD final") }
                guard EVP_CIPHER_CTX_ctrl(ctx, sw_evp_ctrl_aead_get_tag(), Int32(tagLength), o + plaintext.count) == 1 else {
                    throw CryptoError.openSSL("AEAD tag")
                }
            }
            spoiled = false
            return out
        }
    }

    /// Verifies the tag (OpenSSL compares in constant time) and returns the plaintext.
    public static func open(key: UnsafeRawBufferPointer, nonce12: UnsafeRawBufferPointer,
                            sealed: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard key.count == 32, nonce12.count == 12 else { throw CryptoError.invalidInput("AEAD key or nonce has the wrong length") }
        guard sealed.count >= tagLength else { throw CryptoError.authenticationFailed }
        guard sealed.count < Int(Int32.max), aad.count < Int(Int32.max) else { throw CryptoError.invalidInput("AEAD input too large") }
        let cipherCount = sealed.count - tagLength
        // A failed open (a wrong tag, say) leaves the context mid-operation: the next open starts anew.
        return try AEADContexts.with(sealing: false) { ctx, new, spoiled in
            guard EVP_DecryptInit_ex2(ctx, new ? OpenSSLAlgorithms.shared.chacha20Poly1305 : nil, ptr(key), ptr(nonce12), nil) == 1 else {
                throw CryptoError.openSSL("AEAD init")
            }
            var outLength: Int32 = 0
            if aad.count > 0 {
                guard EVP_DecryptUpdate(ctx, nil, &outLength, ptr(aad), Int32(aad.count)) == 1 else { throw CryptoError.openSSL("AEAD aad") }
            }
            var out = [UInt8](repeating: 0, count: cipherCount)
            let ok = out.withUnsafeMutableBufferPointer { o in
                var written = 0
                if cipherCount > 0 {
                    guard EVP_DecryptUpdate(ctx, o.baseAddress, &outLength, ptr(sealed), Int32(cipherCount)) == 1 else { return false }
                    written = Int(outLength)
                }
                // OpenSSL copies the expected tag (it does not write through this pointer). The final call
                // writes nothing for a stream cipher; it gets room of its own when the output is full.
                let tag = UnsafeMutableRawPointer(mutating: sealed.baseAddress! + cipherCount)
                guard EVP_CIPHER_CTX_ctrl(ctx, sw_evp_ctrl_aead_set_tag(), Int32(tagLength), tag) == 1 else { return false }
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { s in
                    EVP_DecryptFinal_ex(ctx, written < cipherCount ? o.baseAddress! + written : s.baseAddress, &outLength) == 1
                }
            }
            guard ok else {
                SecretBytes.wipe(&out)
                throw CryptoError.authenticationFailed
            }
            spoiled = false
            return out
        }
    }

    @inline(__always)
    private static func ptr(_ b: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        b.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}

/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): HChaCha20(key, nonce[0..16]) gives a subkey used with
/// ChaCha20-Poly1305 and the nonce 0x00000000 || nonce[16..24].
public enum XChaCha20Poly1305 {
    public static func seal(key: UnsafeRawBufferPointer, nonce24: UnsafeRawBufferPointer,
                            plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard nonce24.count == 24 else { throw CryptoError.invalidInput("XChaCha20 nonce must be 24 bytes") }
        var subkey = try HChaCha20.derive(key: key, nonce16: UnsafeRawBufferPointer(rebasing: nonce24[0..<16]))
        defer { SecretBytes.wipe(&subkey) }
        let nonce = [0, 0, 0, 0] + Array(nonce24[16..<24])
        return try subkey.withUnsafeBytes { k in
            try nonce.withUnsafeBytes { n in try ChaCha20Poly1305.seal(key: k, nonce12: n, plaintext: plaintext, aad: aad) }
        }
    }

    public static func open(key: UnsafeRawBufferPointer, nonce24: UnsafeRawBufferPointer,
                            sealed: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard nonce24.count == 24 else { throw CryptoError.invalidInput("XChaCha20 nonce must be 24 bytes") }
        var subkey = try HChaCha20.derive(key: key, nonce16: UnsafeRawBufferPointer(rebasing: nonce24[0..<16]))
        defer { SecretBytes.wipe(&subkey) }
        let nonce = [0, 0, 0, 0] + Array(nonce24[16..<24])
        return try subkey.withUnsafeBytes { k in
            try nonce.withUnsafeBytes { n in try ChaCha20Poly1305.open(key: k, nonce12: n, sealed: sealed, aad: aad) }
        }
    }
}

/// HChaCha20 (draft-irtf-cfrg-xchacha §2.2). OpenSSL does not expose it, so it is written out here;
/// it is the ChaCha20 block function without the final addition, keeping words 0–3 and 12–15.
public enum HChaCha20 {
    public static func derive(key: UnsafeRawBufferPointer, nonce16: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard key.count == 32, nonce16.count == 16 else { throw CryptoError.invalidInput("HChaCha20 needs a 32-byte key and 16-byte nonce") }
        func le32(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
            UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
        }
        var s: [UInt32] = [0x6170_7865, 0x3320_646E, 0x7962_2D32, 0x6B20_6574]
        for i in 0..<8 { s.append(le32(key, i * 4)) }
        for i in 0..<4 { s.append(le32(nonce16, i * 4)) }
        @inline(__always) func quarter(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            s[a] = s[a] &+ s[b]; s[d] ^= s[a]; s[d] = s[d] << 16 | s[d] >> 16
            s[c] = s[c] &+ s[d]; s[b] ^= s[c]; s[b] = s[b] << 12 | s[b] >> 20
            s[a] = s[a] &+ s[b]; s[d] ^= s[a]; s[d] = s[d] << 8 | s[d] >> 24
            s[c] = s[c] &+ s[d]; s[b] ^= s[c]; s[b] = s[b] << 7 | s[b] >> 25
        }
        for _ in 0..<10 {
            quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15)
            quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14)
        }
        var out = [UInt8]()
        out.reserveCapacity(32)
        for w in [s[0], s[1], s[2], s[3], s[12], s[13], s[14], s[15]] {
            out.append(UInt8(w & 0xFF)); out.append(UInt8(w >> 8 & 0xFF)); out.append(UInt8(w >> 16 & 0xFF)); out.append(UInt8(w >> 24))
        }
        for i in s.indices { s[i] = 0 }
        return out
    }
}
