import COpenSSL

public enum HMACSHA256 {
    /// HMAC-SHA256(key, part1 || part2 || …) without concatenating the parts first.
    public static func authenticate(key: UnsafeRawBufferPointer, parts: [UnsafeRawBufferPointer]) -> Bytes32 {
        // On the shim's SHA-256 blocks: no MAC context allocated per call (one per NIP-44 payload).
        var k = sw_hmac_sha256_key()
        defer { sw_hmac_sha256_key_wipe(&k) }
        sw_hmac_sha256_set_key(&k, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count)
        var ctx = SHA256_CTX()
        sw_hmac_sha256_start(&k, &ctx)
        for part in parts where part.count > 0 { sw_hmac_sha256_update(&ctx, part.baseAddress, part.count) }
        var out = Bytes32()
        out.withUnsafeMutableBytes { o in sw_hmac_sha256_finish(&k, &ctx, o.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return out
    }

    public static func authenticate(key: [UInt8], message: [UInt8]) -> Bytes32 {
        key.withUnsafeBytes { k in message.withUnsafeBytes { m in authenticate(key: k, parts: [m]) } }
    }
}
