/// Where this machine may connect on the word of someone else (a link in a post, a relay in their inbox
/// list): only public addresses, never into its own network (the router's admin page, a local service).
public enum PublicAddressPolicy {
    /// Whether an IPv4 (4 bytes) or IPv6 (16 bytes) address is publicly routable.
    public static func isPublic(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4: return isPublicV4(address)
        case 16: return isPublicV6(address)
        default: return false
        }
    }

    static func isPublicV4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1]) {
        case (0, _), (10, _), (127, _): return false                 // this network, private, loopback
        case (100, 64...127): return false                           // carrier-grade NAT
        case (169, 254): return false                                // link-local
        case (172, 16...31): return false                            // private
        case (192, 168): return false                                // private
        case (192, 0) where a[2] == 0 || a[2] == 2: return false     // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): return false                            // benchmarking
        case (198, 51) where a[2] == 100, (203, 0) where a[2] == 113: return false  // TEST-NET-2 and 3
        case (224...255, _): return false                            // multicast, reserved, broadcast
        default: return true
        }
    }

    static func isPublicV6(_ a: [UInt8]) -> Bool {
        if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xFF && a[11] == 0xFF { return isPublicV4(Array(a[12..<16])) }  // ::ffff:v4
        if a[0..<15].allSatisfy({ $0 == 0 }) { return false }                 // :: and ::1
        if a[0] & 0xFE == 0xFC { return false }                               // unique local fc00::/7
        if a[0] == 0xFE && a[1] & 0xC0 == 0x80 { return false }               // link-local fe80::/10
        if a[0] == 0xFF { return false }                                      // multicast
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8 { return false }  // documentation
        if a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xFF && a[3] == 0x9B { return isPublicV4(Array(a[12..<16])) }  // NAT64
        return true
    }
}
