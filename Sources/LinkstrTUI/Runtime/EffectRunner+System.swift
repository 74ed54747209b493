import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// The system around the app, through `Services`: clipboard, browser, notifications, the cache folder.
extension EffectRunner {
    func runSystem(_ effect: AppEffect) throws -> [AppAction] {
        switch effect {
        case .copy(let text, let label):
            return [.copyFinished(label: label, services.clipboard.copy(text))]
        case .settings(.copySecret(let secret)):
            // Copying hands the text to other programs anyway; this String lives only for that.
            let text = secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            return [.copyFinished(label: "secret key", services.clipboard.copy(text))]
        case .post(.readClipboard):
            return [.post(.clipboardRead(services.clipboard.read()))]
        case .post(.openURL(let url)):
            // A video plays when this machine has a player: what happens comes back as it happens.
            let dispatch = self.dispatch
            if services.player.play(url, { dispatch(.post(.playbackChanged($0))) }) { return [] }
            switch services.browser.open(url) {
            case .success(let m): return [.post(.linkOpened(how: m))]
            case .failure(let e): return [.failed(.openLink, ClientError(.invalid, e.description))]
            }
        case .post(.stopPlayer):
            services.player.stop()
            return []
        case .settings(.clearCache):
            guard let account else { return [] }
            try account.clearLinkMetadata()
            let cache = paths.cache(for: account.me)
            if FileManager.default.fileExists(atPath: cache.path) {
                do { try FileManager.default.removeItem(at: cache) } catch {
                    return [.failed(.clearCache, ClientError(error))]
                }
            }
            return [.settings(.cacheCleared)]
        case .notify(let title, let body, let via):
            services.notifier.notify(title, body, via != .desktop, via != .bell)
            return []
        default:
            assertionFailure("\(effect) is not a system effect")  // `run` routes by area
            return []
        }
    }
}
