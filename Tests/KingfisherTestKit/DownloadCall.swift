// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

/// One caller of the callback form of `ImageDownloader.downloadImage`, made synchronously, so
/// that when the initializer returns the caller has joined its download (or the download waits
/// for a slot, or has started its exchange): a test then knows exactly who shares what. Its
/// outcome is awaited by continuation.
package final class DownloadCall: Sendable {
    package typealias Outcome = Result<ImageLoadingResult, KingfisherError>

    /// The caller's task: cancel it, or change its priority.
    package let task: DownloadTask?
    private let outcome: WaitableState<Outcome?>
    /// (received, expected) byte counts, as reported to this caller.
    package let progress: Locked<[(received: Int64, expected: Int64)]>

    /// Starts downloading `url`; `options` get `.callbackQueue(.untouch)` added, so the
    /// completion runs where the downloader finishes.
    package init(_ downloader: ImageDownloader, _ url: URL, options: KingfisherOptionsInfo = []) {
        let outcome = WaitableState<Outcome?>(nil)
        let progress = Locked<[(received: Int64, expected: Int64)]>([])
        self.outcome = outcome
        self.progress = progress
        task = downloader.downloadImage(
            with: url, options: options + [.callbackQueue(.untouch)],
            progressBlock: { received, expected in progress.withLock { $0.append((received, expected)) } },
            completionHandler: { result in outcome.update { $0 = result } })
    }

    /// Starts downloading `url` at `priority`.
    package convenience init(_ downloader: ImageDownloader, _ url: URL, priority: Float) {
        self.init(downloader, url, options: [.downloadPriority(priority)])
    }

    /// Whether the completion handler has run.
    package var isFinished: Bool { outcome.current != nil }

    /// The outcome, once the completion handler has run.
    package func result() async throws -> Outcome {
        try await outcome.waitForValue { $0 }
    }

    /// The downloaded image; throws the download's error.
    package func image() async throws -> KFCrossPlatformImage {
        try await result().get().image
    }

    /// The download's error, or `nil` when it succeeded.
    package func error() async throws -> KingfisherError? {
        guard case .failure(let error) = try await result() else { return nil }
        return error
    }
}
