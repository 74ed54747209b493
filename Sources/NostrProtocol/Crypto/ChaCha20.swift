import COpenSSL

/// RFC 8439 ChaCha20 stream cipher (counter starts at 0), as NIP-44 v2 uses it.
public enum ChaCha20 {
    /// XORs the keystream into `input`, writing to `output` (which may alias `input`).
    public static func apply(key: UnsafeRawBufferPointer, nonce12: UnsafeRawBufferPointer,
                             input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) {
        precondition(key.count == 32 && nonce12.count == 12 && output.count >= input.count)
        if input.count == 0 { return }
        guard let ctx = EVP_CIPHER_CTX_new() else { fatalError("out of memory") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        // OpenSSL's 16-byte IV is the little-endian 32-bit block counter followed by the 96-bit nonce.
        var iv = [UInt8](repeating: 0, count: 16)
        for i in 0..<12 { iv[4 + i] = nonce12[i] }
        let ok1 = EVP_EncryptInit_ex2(ctx, OpenSSLAlgorithms.shared.chacha20,
                                      key.baseAddress!.assumingMemoryBound(to: UInt8.self), iv, nil)
        precondition(ok1 == 1, "ChaCha20 init failed")
        var outLength: Int32 = 0
        var offset = 0
        // EVP_EncryptUpdate takes an Int32 length; feed large inputs in chunks.
        while offset < input.count {
            let chunk = min(input.count - offset, 1 << 30)
            let ok = EVP_EncryptUpdate(ctx, output.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), &outLength,
                                       input.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(chunk))
            precondition(ok == 1 && Int(outLength) == chunk, "ChaCha20 failed")
            offset += chunk
        }
    }
}
