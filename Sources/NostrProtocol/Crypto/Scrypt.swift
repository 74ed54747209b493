import COpenSSL

/// scrypt (RFC 7914) through OpenSSL's KDF.
public enum Scrypt {
    /// Memory scrypt needs: 128 · r · N · p bytes, plus OpenSSL's own bookkeeping.
    public static func requiredMemory(logN: UInt8, r: UInt32, p: UInt32) -> UInt64 {
        128 * UInt64(r) * (UInt64(1) << UInt64(logN)) * UInt64(p)
    }

    public static func derive(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
                              logN: UInt8, r: UInt32 = 8, p: UInt32 = 1, length: Int) throws -> SecretBytes {
        guard logN >= 1, logN <= 30 else { throw CryptoError.invalidInput("scrypt cost out of range") }
        let algos = OpenSSLAlgorithms.shared
        guard let ctx = EVP_KDF_CTX_new(algos.scrypt) else { throw CryptoError.openSSL("EVP_KDF_CTX_new") }
        defer { EVP_KDF_CTX_free(ctx) }
        var n = UInt64(1) << UInt64(logN)
        var rValue = r
        var pValue = p
        // OpenSSL refuses above 32 MiB by default; NIP-49's usual cost (log_n 16) needs 64 MiB.
        var maxMemory = requiredMemory(logN: logN, r: r, p: p) + (16 << 20)
        var empty: UInt8 = 0
        let out = SecretBytes(count: length)
        let ok: Int32 = withUnsafeMutablePointer(to: &empty) { emptyPointer in
            let pw = UnsafeMutableRawPointer(mutating: password.baseAddress) ?? UnsafeMutableRawPointer(emptyPointer)
            let s = UnsafeMutableRawPointer(mutating: salt.baseAddress) ?? UnsafeMutableRawPointer(emptyPointer)
            var params = [
                OSSL_PARAM_construct_octet_string(SW_P_PASSWORD, pw, password.count),
                OSSL_PARAM_construct_octet_string(SW_P_SALT, s, salt.count),
                OSSL_PARAM_construct_uint64(SW_P_SCRYPT_N, &n),
                OSSL_PARAM_construct_uint32(SW_P_SCRYPT_R, &rValue),
                OSSL_PARAM_construct_uint32(SW_P_SCRYPT_P, &pValue),
                OSSL_PARAM_construct_uint64(SW_P_SCRYPT_MAXMEM, &maxMemory),
                OSSL_PARAM_construct_end(),
            ]
            return out.withUnsafeMutableBytes { o in
                EVP_KDF_derive(ctx, o.baseAddress!.assumingMemoryBound(to: UInt8.self), length, &params)
            }
        }
        guard ok == 1 else { throw CryptoError.openSSL("scrypt (not enough memory?)") }
        return out
    }
}
