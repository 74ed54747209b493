import COpenSSL

/// HKDF-SHA256 (RFC 5869) in the split form NIP-44 uses, on the shim's HMAC-SHA256.
public enum HKDF {
    /// PRK = HMAC(salt, IKM) (RFC 5869 §2.2), on the shim's HMAC: it runs for every gift wrap (its
    /// one-time key's conversation key), where a KDF context's set-up cost more than the hashing.
    public static func extract(salt: UnsafeRawBufferPointer, inputKeyMaterial ikm: UnsafeRawBufferPointer) -> Bytes32 {
        HMACSHA256.authenticate(key: salt, parts: [ikm])
    }

    /// Expand runs once per NIP-44 payload: on the shim's HMAC (no KDF context to set up).
    public static func expand(pseudoRandomKey prk: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer,
                              output: UnsafeMutableRawBufferPointer) {
        let ok = sw_hkdf_sha256_expand(prk.baseAddress?.assumingMemoryBound(to: UInt8.self), prk.count,
                                       info.baseAddress?.assumingMemoryBound(to: UInt8.self), info.count,
                                       output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count)
        precondition(ok == 1, "HKDF-expand: at most 8160 bytes")
    }
}
