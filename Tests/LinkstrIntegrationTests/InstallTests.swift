import Foundation
import LinkstrTestSupport
import XCTest

/// scripts/install into a temporary PREFIX and HOME: man pages render without warnings, completions
/// load (and bash proposes subcommands), the desktop entry validates and handles linkstr://, installing
/// twice changes nothing, and scripts/uninstall leaves no file behind.
final class InstallTests: XCTestCase {
    func testInstallTwiceThenUninstall() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let prefix = work.appendingPathComponent("prefix"), home = work.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        env["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        env["XDG_DATA_DIRS"] = prefix.appendingPathComponent("share").path + ":/usr/share"
        env["PREFIX"] = prefix.path
        env["LINKSTR_INSTALL_BINARY"] = try TestEnvironment.builtProduct("linkstr").path
        let bash = URL(fileURLWithPath: "/bin/bash")
        func script(_ name: String) throws -> ProcessRunner.Result {
            let r = try ProcessRunner.run(bash, [root.appendingPathComponent("scripts/\(name)").path], environment: env, timeout: 300)
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderrText)")
            return r
        }
        func files(_ dir: URL) -> [String: Data] {
            var out = [String: Data]()
            let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = e?.nextObject() as? URL {
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { out[url.path] = FileManager.default.contents(atPath: url.path) }
            }
            return out
        }

        _ = try script("install")
        let installed = files(work)
        let version = try ProcessRunner.run(prefix.appendingPathComponent("bin/linkstr"), ["--version"])
        XCTAssertTrue(version.stdoutText.range(of: #"^\d+\.\d+\.\d+ \(commit [0-9a-f]{12}\)\n$"#, options: .regularExpression) != nil, version.stdoutText)

        // Every man page renders at 80 columns without a warning.
        let pages = installed.keys.filter { $0.contains("/share/man/man") }.sorted()
        XCTAssertGreaterThan(pages.count, 30)
        XCTAssertTrue(pages.contains { $0.hasSuffix("man1/linkstr.1") } && pages.contains { $0.hasSuffix("man5/linkstr.5") }
                      && pages.contains { $0.hasSuffix("man1/linkstr-session-create.1") })
        var manEnv = env
        manEnv["MANWIDTH"] = "80"
        for page in pages {
            let r = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/man"), ["--warnings", "-l", page], environment: manEnv)
            XCTAssertEqual(r.status, 0, page)
            XCTAssertEqual(r.stderrText, "", "\(page) renders without warnings")
            XCTAssertTrue(r.stdoutText.contains("NAME"), page)
        }

        // Completions load; bash proposes subcommands.
        let completions = prefix.appendingPathComponent("share/bash-completion/completions/linkstr").path
        XCTAssertEqual(try ProcessRunner.run(bash, ["-n", completions]).status, 0)
        let proposed = try ProcessRunner.run(bash, ["-c", "source \(completions); COMP_WORDS=(linkstr ses); COMP_CWORD=1; COMP_LINE='linkstr ses'; COMP_POINT=11; _linkstr linkstr ses linkstr; echo \"${COMPREPLY[@]}\""])
        XCTAssertEqual(proposed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "session")
        for (shell, file) in [("zsh", "share/zsh/site-functions/_linkstr"), ("fish", "share/fish/vendor_completions.d/linkstr.fish")] {
            XCTAssertNotNil(installed[prefix.appendingPathComponent(file).path], file)
            for dir in ["/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(shell)") {
                XCTAssertEqual(try ProcessRunner.run(URL(fileURLWithPath: "\(dir)/\(shell)"), ["-n", prefix.appendingPathComponent(file).path]).status, 0, shell)
                break
            }
        }

        // The desktop entry validates and is the linkstr:// handler.
        let desktop = prefix.appendingPathComponent("share/applications/linkstr.desktop").path
        let validated = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/desktop-file-validate"), [desktop])
        XCTAssertEqual(validated.status, 0, validated.stdoutText + validated.stderrText)
        XCTAssertEqual(validated.stdoutText + validated.stderrText, "")
        let handler = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/xdg-mime"), ["query", "default", "x-scheme-handler/linkstr"], environment: env)
        XCTAssertEqual(handler.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "linkstr.desktop")

        // Installing twice changes nothing; uninstalling leaves no file behind.
        _ = try script("install")
        XCTAssertEqual(files(work), installed)
        _ = try script("uninstall")
        XCTAssertEqual(files(work).keys.sorted(), [])
        _ = try script("uninstall")
    }
}
