import LinkstrDomain
import XCTest

/// mpv's IPC lines as the status line tells them: what happened, the title cleaned, yt-dlp's errors
/// made words with the fix, and anything else (junk, other events, an over-long line) ignored.
final class MpvEventReaderTests: XCTestCase {
    func testAPlaybackFromStartToEnd() {
        var reader = MpvEventReader()
        XCTAssertNil(reader.read(#"{"event":"start-file","playlist_entry_id":1}"#))
        XCTAssertNil(reader.read(#"{"event":"property-change","id":1,"name":"media-title","data":"A \u001b[2Jfilm\nnight"}"#))
        XCTAssertEqual(reader.read(#"{"event":"file-loaded"}"#), .playing(title: "A [2Jfilm night"), "the escape taken out, as in every remote string")
        XCTAssertEqual(reader.read(#"{"event":"end-file","reason":"eof"}"#), .ended)
        XCTAssertEqual(PlaybackEvent.playing(title: "A film").words, "playing: A film.")
        XCTAssertEqual(reader.read(#"{"event":"end-file","reason":"quit"}"#), .closed)
        XCTAssertEqual(reader.read(#"{"event":"end-file","reason":"stop"}"#), .closed)
    }

    func testYtdlpErrorsBecomeWordsWithTheFix() {
        var reader = MpvEventReader()
        _ = reader.read(#"{"event":"log-message","prefix":"ytdl_hook","level":"error","text":"ERROR: [generic] Unsupported URL: https://x.example/\n"}"#)
        _ = reader.read(#"{"event":"log-message","prefix":"ytdl_hook","level":"warn","text":"youtube-dl failed: unexpected error occurred\n"}"#)
        guard case .failed(let why) = reader.read(#"{"event":"end-file","reason":"error","file_error":"loading failed"}"#) else { return XCTFail() }
        XCTAssertTrue(why.hasPrefix("yt-dlp could not play this (ERROR: [generic] Unsupported URL: https://x.example/)"), why)
        XCTAssertTrue(why.contains("yt-dlp -U"), why)
        XCTAssertTrue(reader.reportedFailure)

        var missing = MpvEventReader()
        _ = missing.read(#"{"event":"log-message","prefix":"ytdl_hook","level":"error","text":"youtube-dl not found, not executable, or broken."}"#)
        XCTAssertEqual(missing.read(#"{"event":"end-file","reason":"error"}"#), .failed(MpvEventReader.installYtdlp))

        var plain = MpvEventReader()
        XCTAssertEqual(plain.read(#"{"event":"end-file","reason":"error","file_error":"unrecognized file \u001b]0;x\u0007format"}"#),
                       .failed("mpv could not open it (unrecognized file ]0;xformat)."), "no control character reaches the screen")
    }

    /// Issue 54 (12): real mpv may report the title after the file loaded; the status follows it.
    /// Issue 54 (9): a video that is gone is not a reason to update yt-dlp.
    func testATitleAfterTheFileLoadedAndAVideoThatIsGone() {
        var reader = MpvEventReader()
        XCTAssertEqual(reader.read(#"{"event":"file-loaded"}"#), .playing(title: nil))
        XCTAssertEqual(reader.read(#"{"event":"property-change","id":1,"name":"media-title","data":"watch?v=abc"}"#), .playing(title: "watch?v=abc"))
        XCTAssertEqual(reader.read(#"{"event":"property-change","id":1,"name":"media-title","data":"The real title"}"#), .playing(title: "The real title"))
        XCTAssertNil(reader.read(#"{"event":"property-change","id":1,"name":"media-title","data":"The real title"}"#), "the same title again says nothing")

        var gone = MpvEventReader()
        _ = gone.read(#"{"event":"log-message","prefix":"ytdl_hook","level":"error","text":"ERROR: [youtube] abc: Video unavailable\n"}"#)
        XCTAssertEqual(gone.read(#"{"event":"end-file","reason":"error"}"#), .failed("yt-dlp could not play this (ERROR: [youtube] abc: Video unavailable)."))
    }

    func testJunkIsIgnored() {
        var reader = MpvEventReader()
        for line in ["", "not json", "[1,2]", #"{"event":5}"#, #"{"error":"success","data":null,"request_id":0}"#,
                     #"{"event":"log-message","prefix":"cplayer","level":"error","text":"unrelated"}"#,
                     "{\"event\":\"file-loaded\",\"x\":\"" + String(repeating: "a", count: MpvEventReader.maxLine) + "\"}"] {
            XCTAssertNil(reader.read(line), line.prefix(40).description)
        }
        XCTAssertNil(reader.ytdlError)
    }
}
