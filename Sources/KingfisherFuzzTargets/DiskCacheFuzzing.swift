// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// The disk cache reading a file with arbitrary contents: the bytes are stored as the file for
/// the key "fuzz", then read back and decoded through the cache.
final class DiskCacheFuzzing: Sendable {
    static let shared = DiskCacheFuzzing()

    private let cache: ImageCache

    private init() {
        // One directory, emptied when a run starts, so runs do not leave directories behind.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kf-fuzz-disk-cache", isDirectory: true)
        try? FileManager.default.removeItem(at: directory)
        do {
            cache = try ImageCache(name: "fuzz", cacheDirectoryURL: directory)
        } catch {
            fatalError("no cache directory at \(directory.path): \(error)")
        }
    }

    func run(_ data: Data) {
        // Written through the storage, so the file carries the cache's dates (an expired file
        // would not be read); its contents are the fuzzer's.
        do {
            try cache.diskStorage.store(value: data, forKey: "fuzz")
        } catch {
            fatalError("could not write the cache file: \(error)")
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
