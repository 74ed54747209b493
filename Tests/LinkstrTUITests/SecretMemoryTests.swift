import Foundation
import LinkstrApp
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrTUI

/// Issue 32 (11): the nsec shown in Settings (or at onboarding) stayed in memory after it was hidden.
/// It now lives only in a buffer wiped when hidden; this scans the process's own writable memory for it.
/// The test never holds the secret in plain: the needle is masked (each byte XOR 0xA5).
final class SecretMemoryTests: XCTestCase {
    static let mask: UInt8 = 0xA5

    func testAShownSecretLeavesNoCopyInMemoryOnceHidden() throws {
        let key = SecretKey.generate()
        // What follows "nsec1" (the prefix is no secret), masked.
        let masked: [UInt8] = key.revealNsecBytes().withUnsafeBytes { $0.dropFirst(5).map { $0 ^ Self.mask } }
        XCTAssertEqual(masked.count, 58)
        XCTAssertEqual(try MemoryScan.places(masked: masked, mask: Self.mask), 0, "nothing made a copy yet")

        // The scan does find a plain copy on the heap, and no longer once it is wiped.
        var plain = masked.map { $0 ^ Self.mask }
        XCTAssertGreaterThanOrEqual(try MemoryScan.places(masked: masked, mask: Self.mask), 1, "the scan reads the heap")
        SecretBytes.wipe(&plain)
        XCTAssertEqual(try MemoryScan.places(masked: masked, mask: Self.mask), 0)

        // Settings: shown (as the runner answers S y), drawn, then hidden with S.
        var state = AppFixture.main()
        _ = AppReducer.reduce(&state, .keyPressed(.char("4")))
        _ = AppReducer.reduce(&state, .settings(.secretRevealed(RevealedSecret(key.revealNsecBytes()))))
        var canvas = AppView.render(state)
        XCTAssertTrue(shows(canvas, masked), "the key is on screen while shown")
        _ = AppReducer.reduce(&state, .keyPressed(.char("S")))
        XCTAssertNil(state.settings.revealedSecret)
        canvas = AppView.render(state)
        XCTAssertFalse(shows(canvas, masked))
        XCTAssertEqual(try MemoryScan.places(masked: masked, mask: Self.mask), 0, "no copy of the shown key is left in memory")

        // Onboarding: the new key shown with r, then Enter continues.
        state = AppFixture.main()
        state.phase = .onboarding({
            var onboarding = OnboardingState()
            onboarding.step = .backup(revealed: nil)
            onboarding.secretToBackUp = RevealedSecret(key.revealNsecBytes())
            return onboarding
        }())
        _ = AppReducer.reduce(&state, .keyPressed(.char("r")))
        canvas = AppView.render(state)
        XCTAssertTrue(shows(canvas, masked))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        canvas = AppView.render(state)
        XCTAssertEqual(try MemoryScan.places(masked: masked, mask: Self.mask), 0, "nor of the one shown at onboarding")
        withExtendedLifetime(canvas) {}
    }

    /// Whether a row of the canvas spells the masked text (compared cell by cell, unmasked one byte at a time).
    private func shows(_ canvas: Canvas, _ masked: [UInt8]) -> Bool {
        (0..<canvas.height).contains { y in
            (0...(canvas.width - masked.count)).contains { x in
                masked.indices.allSatisfy { i in canvas[x + i, y].text.utf8.first.map { $0 ^ Self.mask } == masked[i] }
            }
        }
    }
}

/// Reads this process's writable memory through /proc/self/mem, a megabyte at a time, into a buffer of
/// its own (left out of the search).
enum MemoryScan {
    struct Failure: Error { let what: String }

    static func places(masked: [UInt8], mask: UInt8) throws -> Int {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { throw Failure(what: "no /proc/self/maps") }
        let fd = open("/proc/self/mem", O_RDONLY)
        guard fd >= 0 else { throw Failure(what: "no /proc/self/mem") }
        defer { close(fd) }
        let chunk = 1 << 20, span = chunk + masked.count - 1
        guard let buffer = mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), buffer != MAP_FAILED else {
            throw Failure(what: "mmap")
        }
        defer { memset(buffer, 0, span); munmap(buffer, span) }
        let own = UInt(bitPattern: buffer)..<(UInt(bitPattern: buffer) + UInt(span))
        let first = Int32(masked[0] ^ mask)
        var found = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2 else { continue }
            var address = bounds[0]
            while address < bounds[1] {
                let want = Int(min(UInt(span), bounds[1] - address))
                let got = pread(fd, buffer, want, off_t(Int64(address)))
                guard got >= masked.count else { break }
                let bytes = buffer.assumingMemoryBound(to: UInt8.self)
                var i = 0
                while i <= got - masked.count, i < chunk {
                    guard let hit = memchr(bytes + i, first, got - masked.count + 1 - i) else { break }
                    let at = bytes.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    guard at < chunk else { break }
                    if !own.contains(address + UInt(at)), (1..<masked.count).allSatisfy({ bytes[at + $0] ^ mask == masked[$0] }) { found += 1 }
                    i = at + 1
                }
                address += UInt(chunk)
            }
        }
        return found
    }
}
