import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// Which certificate authorities the relay and preview connections trust: the system's, plus a CA file
/// from the config (`tls_ca_file`, for self-hosted relays with their own CA). One client context is
/// built per setting and shared (building one loads the system roots).
public enum TLSTrust {
    private struct State: Sendable {
        var caFile: String?
        var context: NIOSSLContext?
    }

    private static let state = Mutex(State())

    /// Uses `path` (a PEM file of CA certificates) besides the system roots; nil for the system's only.
    /// A file that cannot be read or parsed is an error that says so, at start-up.
    public static func use(caFile path: String?) throws {
        if let path {
            guard FileManager.default.isReadableFile(atPath: path) else { throw ConnectionError.tls("tls_ca_file \(path) cannot be read.") }
            do { _ = try NIOSSLCertificate.fromPEMFile(path) } catch {
                throw ConnectionError.tls("tls_ca_file \(path) holds no PEM certificate.")
            }
        }
        state.withLock { $0 = State(caFile: path, context: nil) }
    }

    /// The client context for the current setting (built once).
    static func clientContext(verify: Bool = true) throws -> NIOSSLContext {
        if verify, let cached = state.withLock({ $0.context }) { return cached }
        var configuration = TLSConfiguration.makeClientConfiguration()
        let caFile = state.withLock { $0.caFile }
        if let caFile { configuration.additionalTrustRoots = [.file(caFile)] }
        if !verify { configuration.certificateVerification = .none }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: configuration) } catch { throw ConnectionError.tls("cannot set up TLS: \(TLSFailure.reason(error))") }
        if verify { state.withLock { $0.context = context } }
        return context
    }
}

/// Turns TLS failures into words ("certificate expired on …", "name mismatch: …", "not trusted"),
/// never BoringSSL internals or build paths.
enum TLSFailure {
    /// Words for a handshake failure. A certificate that failed verification is looked at once more,
    /// over a connection that does not verify, to say whether it expired, is not valid yet or is
    /// simply not trusted.
    static func describe(_ error: any Error, host: String, port: Int, address: SocketAddress?, group: EventLoopGroup) async -> ConnectionError {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return .tls("name mismatch: the relay's certificate is not for \(host)")
        }
        let text = String(describing: error)
        guard text.contains("CERTIFICATE_VERIFY_FAILED") else { return .tls(reason(error)) }
        guard let certificate = await peerCertificate(host: host, port: port, address: address, group: group) else {
            return .tls("certificate not trusted")
        }
        let now = time(nil)
        if certificate.notValidAfter < now { return .tls("certificate expired on \(day(certificate.notValidAfter))") }
        if certificate.notValidBefore > now { return .tls("certificate not valid until \(day(certificate.notValidBefore))") }
        return .tls("certificate not trusted (not issued by an authority this system trusts; a relay's own CA can be added with tls_ca_file in config.toml)")
    }

    /// A short reason from an SSL error: BoringSSL's reason name in words, without file names or lines.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        // "error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at …/handshake.cc:…"
        if let range = text.range(of: #"OPENSSL_internal:([A-Z0-9_]+)"#, options: .regularExpression) {
            let name = text[range].split(separator: ":").last.map(String.init) ?? ""
            return name.lowercased().replacingOccurrences(of: "_", with: " ")
        }
        if text.contains("uncleanShutdown") { return "the relay closed the connection during the handshake" }
        if text.contains("handshakeFailed") { return "handshake failed" }
        return "TLS error"
    }

    static func day(_ t: time_t) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    /// The relay's certificate, read over a connection that does not verify it (and is closed at once).
    static func peerCertificate(host: String, port: Int, address: SocketAddress?, group: EventLoopGroup) async -> NIOSSLCertificate? {
        guard let context = try? TLSTrust.clientContext(verify: false) else { return nil }
        let sni = host.first?.isNumber == true || host.contains(":") ? nil : host
        let handshake = PromiseOnce(group.next().makePromise(of: Void.self))
        let bootstrap = ClientBootstrap(group: group).connectTimeout(.seconds(5)).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: sni))
                try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(done: handshake))
            }
        }
        do {
            let channel = try await (address.map { bootstrap.connect(to: $0) } ?? bootstrap.connect(host: host, port: port)).get()
            defer { channel.close(promise: nil) }
            try await handshake.future.get()
            let handler = try await channel.pipeline.handler(type: NIOSSLClientHandler.self).get()
            return try await channel.eventLoop.submit { handler.peerCertificate }.get()
        } catch {
            handshake.complete(.failure(error))  // a connection that never reached the handler (else a no-op)
            return nil
        }
    }
}

/// A promise completed exactly once, whoever gets there first (NIO forbids a second completion and
/// reports a promise never completed).
private final class PromiseOnce: Sendable {
    private let promise: Mutex<EventLoopPromise<Void>?>
    let future: EventLoopFuture<Void>

    init(_ promise: EventLoopPromise<Void>) {
        future = promise.futureResult
        self.promise = Mutex(promise)
    }

    func complete(_ result: Result<Void, any Error>) {
        promise.withLock { p in
            p?.completeWith(result)
            p = nil
        }
    }
}

/// Completes `done` when the TLS handshake has, or fails it; used on its channel's event loop only.
private final class HandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let done: PromiseOnce

    init(done: PromiseOnce) { self.done = done }

    private func finish(_ result: Result<Void, any Error>) { done.complete(result) }

    func handlerRemoved(context: ChannelHandlerContext) { finish(.failure(ChannelError.ioOnClosedChannel)) }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? TLSUserEvent, case .handshakeCompleted = e { finish(.success(())) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.fireErrorCaught(error)
    }
}
