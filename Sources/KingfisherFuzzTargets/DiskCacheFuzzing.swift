import Foundation
import Kingfisher

/// The disk cache reading a file it did not write: the bytes are put where the cache keeps
/// the key "fuzz", then read back and decoded through the cache.
final class DiskCacheFuzzing: Sendable {
    static let shared = DiskCacheFuzzing()

    private let cache: ImageCache
    private let path: URL

    private init() {
        // One directory, emptied when a run starts, so runs do not leave directories behind.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kf-fuzz-disk-cache", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        do {
            cache = try ImageCache(name: "fuzz", cacheDirectoryURL: directory)
        } catch {
            fatalError("no cache directory at \(directory.path): \(error)")
        }
        path = URL(fileURLWithPath: cache.cachePath(forKey: "fuzz"))
    }

    func run(_ data: Data) {
        do {
            try data.write(to: path)
        } catch {
            fatalError("could not write \(path.path): \(error)")
        }
        let options = KingfisherParsedOptionsInfo([
            .loadDiskFileSynchronously, .callbackQueue(.untouch), .maxPixelCount(FuzzTarget.maxPixelCount),
        ])
        // Synchronous: the read and the completion happen on this thread before the call returns.
        let finished = DispatchSemaphore(value: 0)
        cache.retrieveImageInDiskCache(forKey: "fuzz", options: options) { _ in finished.signal() }
        precondition(finished.wait(timeout: .now()) == .success, "a synchronous disk read did not complete synchronously")
    }
}
