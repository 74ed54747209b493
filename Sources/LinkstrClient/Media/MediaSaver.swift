import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Saves a post's media for offline: a video through yt-dlp, its standard output sealed
/// into the media cache as it arrives (nothing reaches the disk in the clear, and a cancelled or
/// failed save leaves nothing); a link that is itself an image, fetched like thumbnails. Progress comes
/// from yt-dlp's own lines.
public final class MediaSaver: Sendable {
    public typealias Progress = SaveProgress

    private let media: MediaCache
    private let fetcher: ImageFetcher
    private let running = Mutex<[String: Process]>([:])
    /// Closed with its account: saves under way are killed, none starts (nothing more is written into
    /// the closed account's cache).
    private let closed = Mutex(false)

    public init(media: MediaCache, fetcher: ImageFetcher = .configured()) {
        self.media = media
        self.fetcher = fetcher
    }

    /// The cache key of a link's saved copy.
    public static func key(_ link: String) -> String { "saved|" + link }

    /// What is saved for `link`, if anything.
    public func saved(_ link: String) -> MediaCache.Entry? {
        // A cache: a file that does not open is removed and counts as not saved.
        (try? media.entry(Self.key(link))) ?? nil
    }

    /// Stops the save of `link` under way (what was written goes).
    public func cancel(_ link: String) {
        // SIGKILL, not SIGTERM: a process started by one that ignores SIGTERM (the terminal app handles it
        // itself) inherits the ignoring, and would carry on.
        if let process = running.withLock({ $0[link] }), process.isRunning { ChildProcess.kill(process.processIdentifier) }
    }

    /// Kills every save under way (what each wrote goes) and refuses new ones: the account is closing.
    public func close() {
        let processes = running.withLock { list in
            closed.withLock { $0 = true }
            return Array(list.values)
        }
        for process in processes where process.isRunning { ChildProcess.kill(process.processIdentifier) }
    }

    /// Saves `link`, telling `report` how it goes; the last report is `saved`, `cancelled` or `failed`.
    public func save(_ link: String, format: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                     now: Int64, report: @escaping @Sendable (Progress) -> Void) async {
        guard !closed.withLock({ $0 }) else { return report(.cancelled) }
        if URLClassifier.classify(link).isPlayable {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { [self] in
                    saveVideo(link, format: format, environment: environment, now: now, report: report)
                    done.resume()
                }
            }
            return
        }
        report(.saving(nil))
        let bytes: [UInt8]
        do { bytes = try await fetcher.fetch(link) } catch {
            if case .notImage = error { return report(.failed("nothing to save: it is not a video or an image.")) }
            return report(.failed("\(error)"))
        }
        guard let format = ImageFormat.sniff(bytes) else { return report(.failed("nothing to save: it is not a video or an image.")) }
        do {
            try media.store(bytes, key: Self.key(link), entry: .init(kind: .image, source: link, format: format.rawValue, savedAt: now))
        } catch { return report(.failed("\(error)")) }
        report(.saved(bytes: Int64(bytes.count), video: false))
    }

    private func saveVideo(_ link: String, format: String?, environment: [String: String], now: Int64, report: @escaping @Sendable (Progress) -> Void) {
        guard let ytdlp = MediaPlayer.find("yt-dlp", environment: environment) else { return report(.failed(MpvEventReader.installYtdlp)) }
        let writer: MediaCache.Writer
        do { writer = try media.writer(key: Self.key(link), entry: .init(kind: .video, source: link, savedAt: now)) } catch {
            return report(.failed("\(error)"))
        }
        let process = Process()
        process.executableURL = ytdlp
        // One file to standard output (no merging: a single format), progress a line at a time on stderr.
        process.arguments = ["-f", format ?? "b", "-o", "-", "--newline", "--no-part", "--no-playlist", "--", link]
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Registered and started under the lock `close` takes: a save is either killed by it or never starts.
        let started: Result<Bool, Error> = running.withLock { list in
            guard !closed.withLock({ $0 }) else { return .success(false) }
            do { try process.run() } catch { return .failure(error) }
            list[link] = process
            return .success(true)
        }
        switch started {
        case .success(true): break
        case .success(false):
            writer.cancel()
            return report(.cancelled)
        case .failure(let error):
            writer.cancel()
            return report(.failed("yt-dlp did not start: \(error.localizedDescription)"))
        }
        defer { running.withLock { $0[link] = nil } }
        report(.saving(nil))
        // Progress and the last error from stderr, on a thread of its own while the bytes are sealed here.
        let lastError = Mutex<String?>(nil)
        let reading = Thread {
            MediaPlayer.readLines(err.fileHandleForReading.fileDescriptor) { line in
                if let fraction = Self.fraction(line) { report(.saving(fraction)) }
                if line.hasPrefix("ERROR:") { lastError.withLock { $0 = String(DisplayText.singleLine(line).prefix(300)) } }
            }
        }
        reading.start()
        var failure: String?
        let fd = out.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            do { try writer.append(Array(buffer[0..<n])) } catch {
                failure = "\(error)"
                ChildProcess.kill(process.processIdentifier)
                break
            }
        }
        process.waitUntilExit()
        while !reading.isFinished { usleep(5_000) }
        if failure == nil, process.terminationReason == .uncaughtSignal {
            writer.cancel()
            return report(.cancelled)
        }
        if failure == nil, process.terminationStatus != 0 {
            failure = lastError.withLock { $0 }.map { "yt-dlp could not save it (\($0)); an older yt-dlp often cannot: update it (`yt-dlp -U`)." }
                ?? "yt-dlp stopped (exit status \(process.terminationStatus))."
        }
        if failure == nil, writer.received == 0 { failure = "yt-dlp gave nothing to save." }
        if let failure {
            writer.cancel()
            return report(.failed(failure))
        }
        do { try writer.finish() } catch {
            writer.cancel()
            return report(.failed("\(error)"))
        }
        report(.saved(bytes: writer.written, video: true))
    }

    /// The fraction in a yt-dlp progress line ("[download]  42.3% of 10.00MiB …"), or nil.
    static func fraction(_ line: String) -> Double? {
        guard line.hasPrefix("[download]"), let percent = line.split(separator: " ").first(where: { $0.hasSuffix("%") }),
              let value = Double(percent.dropLast()), (0...100).contains(value) else { return nil }
        return value / 100
    }
}
