import Foundation

#if canImport(Glibc)
import Glibc
import Synchronization
#endif

/// Runs a child process to completion with stdin data and a timeout.
///
/// Built on `posix_spawn` and `waitpid` rather than Foundation's `Process`: on Linux, `Process` learns of
/// a child's exit through a socket the child inherits, so when the child starts a daemon (tmux starting
/// its server) that daemon keeps the socket open and `waitUntilExit` never returns.
public enum ProcessRunner {
    public struct Result {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static func run(_ executable: URL, _ arguments: [String], stdin: Data = Data(),
                           environment: [String: String]? = nil, timeout: TimeInterval = 120) throws -> Result {
        // A child that stops reading its stdin must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let name = "\(executable.lastPathComponent) \(arguments.joined(separator: " "))"
        let input = try makePipe(), output = try makePipe(), errors = try makePipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The pipes are close-on-exec; dup2 gives the child plain copies on 0, 1 and 2 only.
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + env).forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, env)
        close(input.read)
        close(output.write)
        close(errors.write)
        guard spawned == 0 else {
            close(input.write)
            close(output.read)
            close(errors.read)
            throw Failure(description: "cannot start \(name): \(String(cString: strerror(spawned)))")
        }

        // Read both pipes concurrently so that a chatty child never blocks on a full pipe.
        let readers = DispatchGroup()
        let out = Collected(), err = Collected()
        for (fd, sink) in [(output.read, out), (errors.read, err)] {
            readers.enter()
            DispatchQueue.global().async {
                sink.drain(fd)
                close(fd)
                readers.leave()
            }
        }
        stdin.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(input.write, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
            }
        }
        close(input.write)

        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw Failure(description: "\(name): waitpid failed (\(errno))") }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw Failure(description: "\(name) timed out after \(timeout)s")
            }
            usleep(2_000)
        }
        // Output ends when every holder of the pipes exits; a grandchild left running keeps it open.
        if readers.wait(timeout: .now() + max(1, deadline.timeIntervalSinceNow)) == .timedOut {
            throw Failure(description: "\(name) exited but a process it started still holds its output open")
        }
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitStatus, stdout: out.data, stderr: err.data)
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed (\(errno))") }
        // Close-on-exec (pipe2 is not visible from Swift here): no other child inherits these ends.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Bytes read from one pipe by one reader thread; read by the caller only after that thread is done.
    private final class Collected: Sendable {
        private let bytes = Mutex(Data())
        var data: Data { bytes.withLock { $0 } }

        func drain(_ fd: Int32) {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 { bytes.withLock { $0.append(buffer, count: n) } } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
