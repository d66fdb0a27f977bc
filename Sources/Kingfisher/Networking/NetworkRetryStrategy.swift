// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Retries a failed download when the network is there, as Kingfisher's `NetworkRetryStrategy`:
/// at once while this machine has a default route through an interface that is up, else when
/// one comes back, or stops after `timeoutInterval`.
///
/// Only response errors are retried (not cancellations, processing errors or the downloader's
/// limits), without a count limit, as Kingfisher's: a server that keeps failing while the
/// network is up is retried each time; combine with alternative sources or use
/// ``DelayRetryStrategy`` for a bounded retry. Link state comes from Linux's own files (see the
/// Differences article); the decision is delivered on a global queue.
public struct NetworkRetryStrategy: RetryStrategy {
    private let timeoutInterval: TimeInterval?
    private let networkMonitor: any NetworkMonitoring

    /// Creates a strategy waiting at most `timeoutInterval` seconds (default 30; `nil`: no limit)
    /// for the network to come back.
    public init(timeoutInterval: TimeInterval? = 30) {
        self.init(timeoutInterval: timeoutInterval, networkMonitor: NetworkMonitor.default)
    }

    init(timeoutInterval: TimeInterval?, networkMonitor: any NetworkMonitoring) {
        self.timeoutInterval = timeoutInterval
        self.networkMonitor = networkMonitor
    }

    public func retry(context: RetryContext, retryHandler: @escaping @Sendable (RetryDecision) -> Void) {
        (context.userInfo as? any NetworkObserver)?.cancel()
        guard !context.error.isCancellation, case .responseError = context.error, !context.error.isDownloadLimit else {
            return retryHandler(.stop)
        }
        if networkMonitor.isConnected { return retryHandler(.retry(userInfo: nil)) }
        let observer = networkMonitor.observeConnectivity(timeoutInterval: timeoutInterval) { [weak context] isConnected in
            retryHandler(isConnected ? .retry(userInfo: context?.userInfo) : .stop)
        }
        context.userInfo = observer
    }
}
