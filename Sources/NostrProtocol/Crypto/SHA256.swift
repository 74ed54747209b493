import COpenSSL

public enum SHA256 {
    public static func hash(_ data: UnsafeRawBufferPointer) -> Bytes32 {
        var out = Bytes32()
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBytes { o in
            EVP_Digest(data.baseAddress, data.count, o.baseAddress!.assumingMemoryBound(to: UInt8.self), &length,
                       OpenSSLAlgorithms.shared.sha256, nil)
        }
        precondition(ok == 1 && length == 32, "SHA-256 failed")
        return out
    }

    public static func hash<C: Collection>(_ data: C) -> Bytes32 where C.Element == UInt8 {
        if let r = data.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return r }
        return Array(data).withUnsafeBytes { hash($0) }
    }

    public static func hash(_ string: String) -> Bytes32 { hash(Array(string.utf8)) }
}
