import Foundation
import LinkstrDomain
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

/// One WebSocket to one relay (ws or wss). Text messages in and out; pings answered; a ping of our own
/// measures latency. Inbound messages larger than `maxMessageBytes` close the connection.
public final class WebSocketConnection: Sendable {
    public enum Event: Sendable, Equatable {
        case text(String)
        case pong(milliseconds: Double)
        /// The connection ended; the reason in plain words (nil when we closed it).
        case closed(String?)
        /// The relay broke the WebSocket rules (a message over the limit) and the connection was closed.
        case brokeProtocol(String)
    }

    enum Outgoing: Sendable {
        case text(String)
        case ping
        case close
    }

    public let url: URL
    public let events: AsyncStream<Event>
    private let outgoing: AsyncStream<Outgoing>.Continuation

    private init(url: URL, events: AsyncStream<Event>, outgoing: AsyncStream<Outgoing>.Continuation) {
        self.url = url
        self.events = events
        self.outgoing = outgoing
    }

    /// Queues a text message. Returns false when the connection is already closed.
    @discardableResult
    public func send(_ text: String) -> Bool {
        if case .enqueued = outgoing.yield(.text(text)) { return true }
        return false
    }

    public func ping() { outgoing.yield(.ping) }

    public func close() {
        outgoing.yield(.close)
        outgoing.finish()
    }

    enum UpgradeResult: Sendable {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case notUpgraded
    }

    /// Connects and upgrades, or throws a `ConnectionError` within `timeout`. `address`: connect there instead
    /// of resolving the URL's host (which still goes into `Host` and SNI).
    public static func connect(to url: URL, address: SocketAddress? = nil, group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                               maxMessageBytes: Int = 4 << 20, timeout: TimeAmount = .seconds(10)) async throws -> WebSocketConnection {
        guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss", let host = url.host, !host.isEmpty else {
            throw ConnectionError.invalidURL(url.absoluteString)
        }
        let secure = scheme == "wss"
        let port = url.port ?? (secure ? 443 : 80)
        let path = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        let hostHeader = (url.port == nil) ? host : "\(host):\(port)"
        let tlsContext: NIOSSLContext? = secure ? try makeTLSContext() : nil

        let protocolError = ProtocolErrorBox(limit: maxMessageBytes)
        // The socket, to close it when the upgrade is not answered in time (its future cannot be cancelled).
        let socket = Mutex<Channel?>(nil)
        let upgrade: EventLoopFuture<UpgradeResult>
        do {
            let initializer: @Sendable (Channel) -> EventLoopFuture<EventLoopFuture<UpgradeResult>> = { channel in
                socket.withLock { $0 = channel }
                return channel.eventLoop.makeCompletedFuture {
                    if let tlsContext {
                        let handler = try NIOSSLClientHandler(context: tlsContext, serverHostname: host.first?.isNumber == true ? nil : host)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeResult>(
                        maxFrameSize: maxMessageBytes,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4096,
                                                                maxAccumulatedFrameSize: maxMessageBytes))
                                try channel.pipeline.syncOperations.addHandler(ProtocolErrorRecorder(box: protocolError))
                                return UpgradeResult.websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                            }
                        })
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: hostHeader)
                    headers.add(name: "User-Agent", value: "linkstr")
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                    var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: .init(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { UpgradeResult.notUpgraded } }))
                    // A relay may send its first frame in the same packet as the 101 response.
                    configuration.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: configuration)
                }
            }
            let bootstrap = ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            if let address {
                upgrade = try await bootstrap.connect(to: address, channelInitializer: initializer)
            } else {
                upgrade = try await bootstrap.connect(host: host, port: port, channelInitializer: initializer)
            }
        } catch {
            throw ConnectionError.describe(error)
        }
        let result: UpgradeResult
        do {
            result = try await withTimeout(timeout) { try await upgrade.get() }
        } catch where secure && (error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError) {
            throw await TLSFailure.describe(error, host: host, port: port, address: address, group: group)
        } catch {
            socket.withLock { $0 }?.close(promise: nil)
            if error is TimeoutError { throw ConnectionError.io("no answer in \(timeout.nanoseconds / 1_000_000_000) s (the relay accepted the connection and said nothing)") }
            throw ConnectionError.describe(error)
        }
        guard case .websocket(let channel) = result else { throw ConnectionError.upgradeRefused }

        let (events, eventSink) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let (outgoingStream, outgoing) = AsyncStream<Outgoing>.makeStream(bufferingPolicy: .unbounded)
        let connection = WebSocketConnection(url: url, events: events, outgoing: outgoing)
        Task {
            let reason = await run(channel, outgoing: outgoingStream, events: eventSink)
            // A protocol error (a message over the limit) says more than "connection lost".
            eventSink.yield(protocolError.reason.map { .brokeProtocol($0) } ?? .closed(reason))
            eventSink.finish()
            outgoing.finish()
        }
        return connection
    }

    /// Pumps frames both ways until either side ends; returns why it ended.
    private static func run(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, outgoing: AsyncStream<Outgoing>,
                            events: AsyncStream<Event>.Continuation) async -> String? {
        let pingSentAt = PingClock()
        do {
            return try await channel.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: String?.self) { group in
                    group.addTask {
                        for await message in outgoing {
                            switch message {
                            case .text(let text):
                                try await outbound.write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
                            case .ping:
                                pingSentAt.mark()
                                try await outbound.write(WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: ByteBuffer(string: "linkstr")))
                            case .close:
                                var data = ByteBuffer()
                                data.write(webSocketErrorCode: .normalClosure)
                                try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data))
                                return nil
                            }
                        }
                        return nil
                    }
                    group.addTask {
                        for try await frame in inbound {
                            switch frame.opcode {
                            case .text:
                                var data = frame.unmaskedData
                                // Straight from the buffer, decoded lossily as before: invalid UTF-8 becomes U+FFFD,
                                // which no event's id then matches. (It was copied into an array, then validated
                                // by a generic call, then made into a String: three passes for the same result.)
                                guard let text = data.readString(length: data.readableBytes) else { continue }
                                events.yield(.text(text))
                            case .ping:
                                try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                            case .pong:
                                if let ms = pingSentAt.elapsedMilliseconds() { events.yield(.pong(milliseconds: ms)) }
                            case .connectionClose:
                                var data = frame.unmaskedData
                                let code = data.readWebSocketErrorCode()
                                return code.map { "relay closed the connection (\($0))" } ?? "relay closed the connection"
                            case .binary:
                                continue
                            default:
                                return "relay sent an invalid frame"
                            }
                        }
                        return "connection lost"
                    }
                    let first = try await group.next() ?? nil
                    group.cancelAll()
                    return first
                }
            }
        } catch {
            return ConnectionError.describe(error).description
        }
    }

    static func makeTLSContext() throws -> NIOSSLContext { try TLSTrust.clientContext() }
}

/// Why the relay's stream broke the WebSocket rules, in words (NIO's own handler closes the connection).
final class ProtocolErrorBox: Sendable {
    private let text = Mutex<String?>(nil)
    let limit: Int
    init(limit: Int) { self.limit = limit }
    var reason: String? { text.withLock { $0 } }
    func record(_ error: any Error) {
        let words: String?
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            words = "the relay sent a message larger than \(limit >> 20) MiB (linkstr's limit), so the connection was closed"
        case let e as NIOWebSocketError: words = "the relay broke the WebSocket rules (\(e))"
        case let e as NIOWebSocketFrameAggregator.Error: words = "the relay broke the WebSocket rules (\(e))"
        default: words = nil
        }
        if let words { text.withLock { if $0 == nil { $0 = words } } }
    }
}

/// Records protocol errors on their way down the pipeline (they are passed on unchanged).
final class ProtocolErrorRecorder: ChannelInboundHandler, Sendable {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    let box: ProtocolErrorBox
    init(box: ProtocolErrorBox) { self.box = box }
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        box.record(error)
        context.fireErrorCaught(error)
    }
}

/// When the last ping left, for the latency figure.
private final class PingClock: Sendable {
    private let sentAt = Mutex<UInt64?>(nil)
    func mark() { sentAt.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }
    func elapsedMilliseconds() -> Double? {
        sentAt.withLock { sentAt in
            guard let s = sentAt else { return nil }
            sentAt = nil
            return Double(DispatchTime.now().uptimeNanoseconds - s) / 1e6
        }
    }
}

public enum ConnectionError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidURL(String)
    case timeout
    case refused
    case unresolvable(String)
    case upgradeRefused
    case tls(String)
    case io(String)

    public var description: String {
        switch self {
        case .invalidURL(let u): return "invalid relay url format: \(u)"
        case .timeout: return "the relay did not answer in time"
        case .refused: return "connection refused"
        case .unresolvable(let h): return "no such host: \(h)"
        case .upgradeRefused: return "the server does not speak WebSocket here"
        case .tls(let m): return "TLS failed: \(m)"
        case .io(let m): return m
        }
    }

    static func describe(_ error: any Error) -> ConnectionError {
        if let e = error as? ConnectionError { return e }
        if let e = error as? ChannelError {
            switch e {
            case .connectTimeout: return .timeout
            // The server took the connection and closed it before answering: said so, not as NIO's words
            // ("Inappropriate operation for state").
            case .inappropriateOperationForState, .ioOnClosedChannel, .eof, .alreadyClosed, .outputClosed:
                return .io("the server closed the connection before answering")
            default: break
            }
        }
        if let e = error as? IOError {
            switch e.errnoCode {
            case ECONNREFUSED: return .refused
            case ECONNRESET, EPIPE: return .io("the server closed the connection before answering")
            default: return .io(String(cString: strerror(e.errnoCode)).lowercased())  // the system's words, not NIO's call
            }
        }
        if let e = error as? SocketAddressError.UnknownHost { return .unresolvable(DisplayText.singleLine(e.host)) }
        if let e = error as? NIOConnectionError {
            // The name did not resolve (no address to try): said as that, not as the resolver's error text.
            if e.connectionErrors.isEmpty, e.dnsAError is SocketAddressError.UnknownHost || e.dnsAAAAError is SocketAddressError.UnknownHost {
                return .unresolvable(DisplayText.singleLine(e.host))
            }
            let text = "\(error)"
            return text.contains("refused") || text.contains("111") ? .refused : .io("cannot connect (\(text.prefix(120)))")
        }
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError { return .tls(TLSFailure.reason(error)) }
        if error is TimeoutError { return .timeout }
        return .io("\(error)".prefix(160).description)
    }
}

struct TimeoutError: Error {}

/// Runs `body`, failing with `TimeoutError` when it takes longer than `timeout`. The answer comes at the
/// deadline even when `body` cannot be cancelled (an `EventLoopFuture.get()` never answered): a task
/// group would wait for it, and `relays test` against a relay that accepts TCP and never answers hung
/// for good. The body is cancelled and left to end on its own.
/// `sleep`: the caller's clock (the live one for sockets, which run in real time).
func withTimeout<T: Sendable>(_ timeout: TimeAmount, sleep: @escaping @Sendable (Duration) async -> Void = TimeSource.live.sleep,
                             _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = TimeoutRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.begin(continuation)
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            let timer = Task {
                await sleep(.nanoseconds(max(0, timeout.nanoseconds)))
                race.finish(.failure(TimeoutError()))
            }
            race.hold([work, timer])
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The first of the body, the timer and cancellation answers; the others are cancelled.
private final class TimeoutRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var answered: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
    }
    private let state = Mutex(State())

    func begin(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { s -> Result<T, any Error>? in
            if let a = s.answered { return a }
            s.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func hold(_ tasks: [Task<Void, Never>]) {
        let done = state.withLock { s in
            s.tasks = tasks
            return s.answered != nil
        }
        if done { tasks.forEach { $0.cancel() } }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock { s -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard s.answered == nil else { return (nil, []) }
            s.answered = result
            defer { s.continuation = nil }
            return (s.continuation, s.tasks)
        }
        tasks.forEach { $0.cancel() }
        continuation?.resume(with: result)
    }
}
