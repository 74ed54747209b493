import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The running app's door for links: a Unix socket, `links.sock` in the data
/// directory (0600 inside the 0700 home, so only its owner connects), opened by the process that holds
/// the directory's lock. `linkstr open LINK` (what the desktop entry runs) hands its link through it
/// instead of saying that another linkstr holds the directory. One line each way: the link, then "ok".
/// Each client is served on a thread of its own (at most `maxClients` at once), so one that connects
/// and says nothing delays no other hand-off.
public final class LinkHandOff: Sendable {
    /// The most one link may take (a share link with its note).
    public static let limit = 16 * 1024
    /// Clients served at once; more wait in the socket's backlog until one is done.
    static let maxClients = 16
    /// How long a client has to send its line, and a sender to hear "ok".
    static let patience = timeval(tv_sec: 5, tv_usec: 0)
    private let descriptor: Mutex<Int32>
    private let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = Mutex(descriptor)
        self.path = path
    }

    deinit { close() }

    public static func socketPath(_ paths: DataPaths) -> String { paths.home.appendingPathComponent("links.sock").path }

    /// Listens on a thread of its own; `received` gets each link's text (bounded, any thread). Nil when
    /// the socket cannot be made (a path too long for a socket, a read-only home): links then wait for
    /// the app to be closed, as before.
    public static func listen(_ paths: DataPaths, received: @escaping @Sendable (String) -> Void) -> LinkHandOff? {
        let path = socketPath(paths)
        guard var address = socketAddress(path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        unlink(path)  // a socket left by a process that died (we hold the lock: it is not in use)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 8) == 0 else {
            Glibc.close(fd)
            return nil
        }
        let door = LinkHandOff(descriptor: fd, path: path)
        let serving = Mutex(0)
        let thread = Thread {
            while true {
                while serving.withLock({ $0 }) >= maxClients { usleep(10_000) }
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return  // closed
                }
                // Not inherited by a player or editor the app starts meanwhile.
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                serving.withLock { $0 += 1 }
                let worker = Thread {
                    defer { serving.withLock { $0 -= 1 } }
                    var timeout = patience
                    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    if let line = readLine(client) {
                        received(line)
                        _ = "ok\n".withCString { write(client, $0, 3) }
                    }
                    Glibc.close(client)
                }
                worker.name = "linkstr.links.client"
                worker.start()
            }
        }
        thread.name = "linkstr.links"
        thread.start()
        return door
    }

    /// Closes the door (the thread's accept ends) and removes the socket.
    public func close() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
            fd = -1
            unlink(path)
        }
    }

    /// Hands `text` to the app holding `paths`; true once it said it took it (within five seconds).
    public static func send(_ text: String, _ paths: DataPaths) -> Bool {
        guard text.utf8.count < limit, !text.contains("\n"), var address = socketAddress(socketPath(paths)) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var timeout = patience
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return false }
        let bytes = Array((text + "\n").utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { return false }
        return readLine(fd) == "ok"
    }

    /// One line (without its newline) of at most `limit` bytes, or nil.
    private static func readLine(_ fd: Int32) -> String? {
        var bytes = [UInt8]()
        var byte: UInt8 = 0
        while bytes.count < limit {
            let n = read(fd, &byte, 1)
            guard n == 1 else { break }
            if byte == 0x0A { return String(validating: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }

    private static func socketAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        return address
    }
}
