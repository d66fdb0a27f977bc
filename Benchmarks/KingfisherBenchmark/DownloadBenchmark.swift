// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// `kf-bench download LIST [--decode]`: downloads every URL in LIST (one per line) with one
/// ImageDownloader, 8 at a time, and prints `downloaded=<n> bytes=<total> seconds=<s>`.
/// Without --decode the processor does not decode (it returns a shared 1x1 image, where the body
/// completes), so the figure is the downloader's network path alone; with --decode every image
/// is decoded on the downloader's processing queue.
enum DownloadBenchmark {
    /// Skips decoding: the download-only figure.
    struct NoDecoding: ImageProcessor {
        static let placeholder = KingfisherImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
        let identifier = "bench.no-decoding"
        func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
            Self.placeholder
        }
    }

    /// Counts finished downloads; resumes the waiting benchmark after the last.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private let expected: Int
        private var count = 0
        private var bytes = 0
        /// Set before the first download starts.
        var whenDone: (@Sendable () -> Void)?

        init(expected: Int) { self.expected = expected }

        func add(bytes size: Int) {
            lock.lock()
            count += 1
            bytes += size
            let last = count == expected
            lock.unlock()
            if last { whenDone?() }
        }

        var totals: (count: Int, bytes: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (count, bytes)
        }
    }

    static func run(list: String, decode: Bool) async {
        guard let text = try? String(contentsOfFile: list, encoding: .utf8) else { fail("cannot read \(list)") }
        let urls = text.split(separator: "\n").compactMap { URL(string: String($0)) }
        let downloader = ImageDownloader(name: "bench")
        downloader.maxConcurrentDownloads = 8
        // Download only: the no-op processor runs where the body completes (`.untouch`), as a
        // cheap processor may; decoding runs on the downloader's processing queue, the default.
        let stages: KingfisherOptionsInfo = decode ? [] : [.processor(NoDecoding()), .processingQueue(.untouch)]
        let options = KingfisherParsedOptionsInfo(stages + [.callbackQueue(.untouch)])
        let start = ContinuousClock.now
        // Kingfisher's callback API, as an app with many images uses it: every request handed to
        // the downloader at once, results counted as they arrive on the processing threads.
        let tally = Tally(expected: urls.count)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            tally.whenDone = { done.resume() }
            for url in urls {
                downloader.downloadImage(
                    with: url, options: options,
                    completionHandler: { result in
                        switch result {
                        case .success(let loaded): tally.add(bytes: loaded.originalData.count)
                        case .failure(let error): fail("\(url): \(error)")
                        }
                    })
            }
        }
        let (count, bytes) = tally.totals
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("downloaded=\(count) bytes=\(bytes) seconds=\(String(format: "%.3f", seconds))")
    }
}
