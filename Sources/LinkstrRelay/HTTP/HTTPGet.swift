import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One HTTP/1.1 GET over SwiftNIO (TLS for https), for the NIP-11 document and link previews: no cookies,
/// no redirects followed here, a hard byte limit and a deadline for the whole exchange.
public enum HTTPGet {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
        /// The body was cut at the byte limit.
        public var truncated: Bool

        public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    /// What happens at the byte limit: fail (documents that must be whole), or keep the first bytes.
    public enum Overflow: Sendable { case fail, truncate }

    /// `address`: connect there instead of resolving the URL's host (the host still goes into `Host` and SNI).
    public static func fetch(_ url: URL, accept: String, maxBytes: Int, overflow: Overflow = .fail, address: SocketAddress? = nil,
                             group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton, timeout: TimeAmount = .seconds(5)) async throws -> Response {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw ConnectionError.invalidURL(url.absoluteString)
        }
        let secure = scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        // As written (percent-encoded), not as Foundation decodes it.
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let encodedPath = components?.percentEncodedPath ?? ""
        let path = (encodedPath.isEmpty ? "/" : encodedPath) + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        let tls = secure ? try WebSocketConnection.makeTLSContext() : nil
        let hostHeader = url.port == nil ? host : "\(host):\(port)"
        do {
            return try await withTimeout(timeout) {
                let bootstrap = ClientBootstrap(group: group).connectTimeout(timeout)
                let initializer: @Sendable (Channel) -> EventLoopFuture<NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>> = { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            let sni = host.first?.isNumber == true || host.contains(":") ? nil : host
                            try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: sni))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
                let channel = if let address {
                    try await bootstrap.connect(to: address, channelInitializer: initializer)
                } else {
                    try await bootstrap.connect(host: host, port: port, channelInitializer: initializer)
                }
                return try await channel.executeThenClose { inbound, outbound in
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: hostHeader)
                    headers.add(name: "Accept", value: accept)
                    headers.add(name: "User-Agent", value: "linkstr")
                    headers.add(name: "Connection", value: "close")
                    // One write: a server that answers on the head and closes ("Connection: close") would
                    // otherwise make a separate write of the end fail, losing an answer already sent.
                    try await outbound.write(contentsOf: [.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)), .end(nil)])
                    var response = Response(status: 0, headers: [], body: [], truncated: false)
                    for try await part in inbound {
                        switch part {
                        case .head(let head):
                            response.status = Int(head.status.code)
                            response.headers = head.headers.map { ($0.name, $0.value) }
                        case .body(let chunk):
                            let room = maxBytes - response.body.count
                            if chunk.readableBytes > room {
                                guard overflow == .truncate else { throw ConnectionError.io("the response is larger than \(maxBytes) bytes") }
                                response.body += chunk.readableBytesView.prefix(room)
                                response.truncated = true
                                return response  // closing the channel stops the download
                            }
                            response.body += chunk.readableBytesView
                        case .end:
                            return response
                        }
                    }
                    return response
                }
            }
        } catch {
            throw ConnectionError.describe(error)
        }
    }
}
