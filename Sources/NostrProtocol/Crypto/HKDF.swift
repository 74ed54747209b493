import COpenSSL

/// HKDF-SHA256 (RFC 5869) through OpenSSL's KDF, in the split form NIP-44 uses.
public enum HKDF {
    public static func extract(salt: UnsafeRawBufferPointer, inputKeyMaterial ikm: UnsafeRawBufferPointer) -> Bytes32 {
        var out = Bytes32()
        out.withUnsafeMutableBytes { o in
            derive(mode: EVP_KDF_HKDF_MODE_EXTRACT_ONLY, key: ikm, saltOrInfo: salt, output: o)
        }
        return out
    }

    public static func expand(pseudoRandomKey prk: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer,
                              output: UnsafeMutableRawBufferPointer) {
        derive(mode: EVP_KDF_HKDF_MODE_EXPAND_ONLY, key: prk, saltOrInfo: info, output: output)
    }

    private static func derive(mode: Int32, key: UnsafeRawBufferPointer, saltOrInfo: UnsafeRawBufferPointer,
                               output: UnsafeMutableRawBufferPointer) {
        let algos = OpenSSLAlgorithms.shared
        guard let ctx = EVP_KDF_CTX_new(algos.hkdf) else { fatalError("out of memory") }
        defer { EVP_KDF_CTX_free(ctx) }
        var modeValue = mode
        var empty: UInt8 = 0
        withUnsafeMutablePointer(to: &empty) { emptyPointer in
            let keyPtr = UnsafeMutableRawPointer(mutating: key.baseAddress) ?? UnsafeMutableRawPointer(emptyPointer)
            let otherPtr = UnsafeMutableRawPointer(mutating: saltOrInfo.baseAddress) ?? UnsafeMutableRawPointer(emptyPointer)
            var params = [
                OSSL_PARAM_construct_int(SW_P_MODE, &modeValue),
                OSSL_PARAM_construct_utf8_string(SW_P_DIGEST, algos.sha256Name, 0),
                OSSL_PARAM_construct_octet_string(SW_P_KEY, keyPtr, key.count),
                OSSL_PARAM_construct_octet_string(mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY ? SW_P_SALT : SW_P_INFO,
                                                  otherPtr, saltOrInfo.count),
                OSSL_PARAM_construct_end(),
            ]
            let ok = EVP_KDF_derive(ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count, &params)
            precondition(ok == 1, "HKDF failed")
        }
    }
}
