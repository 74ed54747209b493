import COpenSSL

public enum HMACSHA256 {
    /// HMAC-SHA256(key, part1 || part2 || …) without concatenating the parts first.
    public static func authenticate(key: UnsafeRawBufferPointer, parts: [UnsafeRawBufferPointer]) -> Bytes32 {
        // The digest is already set on the template: only the key goes in (no lookup by name).
        guard let ctx = EVP_MAC_CTX_dup(OpenSSLAlgorithms.shared.hmacSHA256Template) else { fatalError("out of memory") }
        defer { EVP_MAC_CTX_free(ctx) }
        // An empty key needs a non-null pointer for OpenSSL.
        let empty: [UInt8] = [0]
        let initialized = empty.withUnsafeBufferPointer { fallback in
            EVP_MAC_init(ctx, key.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? fallback.baseAddress!, key.count, nil)
        }
        precondition(initialized == 1, "HMAC init failed")
        for part in parts where part.count > 0 {
            precondition(EVP_MAC_update(ctx, part.baseAddress!.assumingMemoryBound(to: UInt8.self), part.count) == 1)
        }
        var out = Bytes32()
        var length = 0
        out.withUnsafeMutableBytes { o in
            precondition(EVP_MAC_final(ctx, o.baseAddress!.assumingMemoryBound(to: UInt8.self), &length, 32) == 1)
        }
        precondition(length == 32)
        return out
    }

    public static func authenticate(key: [UInt8], message: [UInt8]) -> Bytes32 {
        key.withUnsafeBytes { k in message.withUnsafeBytes { m in authenticate(key: k, parts: [m]) } }
    }
}
