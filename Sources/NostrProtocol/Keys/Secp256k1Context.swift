import CSecp256k1

/// One libsecp256k1 context for the process, randomized once against side channels.
/// After creation it is only used through const functions, which libsecp allows from any thread.
final class Secp256k1Context: @unchecked Sendable {
    static let shared = Secp256k1Context()
    let context: OpaquePointer

    private init() {
        guard let ctx = secp256k1_context_create(sw_secp256k1_context_none()) else {
            fatalError("secp256k1_context_create failed")
        }
        var seed = SystemRandom().bytes(32)
        _ = secp256k1_context_randomize(ctx, &seed)
        SecretBytes.wipe(&seed)
        context = ctx
    }
}
