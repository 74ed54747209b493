import Foundation

/// Stopping a program we started, with what it started: Foundation's `Process` makes each child the
/// leader of a process group of its own, and sees it end only once every holder of its status pipe has
/// gone, so a grandchild left alive (yt-dlp's ffmpeg, mpv's yt-dlp, a hook's `sleep`) keeps the end from
/// being seen and goes on writing. SIGKILL, not SIGTERM: a child of the terminal app inherits its ignored
/// SIGTERM.
public enum ChildProcess {
    public static func kill(_ pid: Int32) {
        guard pid > 0 else { return }
        if getpgid(pid) == pid { _ = Glibc.kill(-pid, SIGKILL) }
        _ = Glibc.kill(pid, SIGKILL)
    }
}
