// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a failed load knows when deciding on a retry, as Kingfisher's: thread-safe, and
/// `userInfo` is where a strategy keeps what it needs across attempts.
public final class RetryContext: Sendable {
    private struct Mutable {
        var retriedCount: Int
        var userInfo: Any?
    }

    /// The source being retried (always the original source, not an alternative).
    public let source: Source
    /// Why the last attempt failed.
    public let error: KingfisherError
    private let mutable: Locked<Mutable>

    init(source: Source, error: KingfisherError, retriedCount: Int = 0, userInfo: Any? = nil) {
        self.source = source
        self.error = error
        mutable = Locked(Mutable(retriedCount: retriedCount, userInfo: userInfo))
    }

    /// Retries made so far: 0 on the first failure.
    public var retriedCount: Int {
        get { mutable.withLock { $0.retriedCount } }
        set { mutable.withLock { $0.retriedCount = newValue } }
    }

    /// What the strategy passed in its last ``RetryDecision/retry(userInfo:)``, or stored here
    /// while deciding (``NetworkRetryStrategy`` keeps its connectivity observer).
    public internal(set) var userInfo: Any? {
        get { mutable.withLock { $0.userInfo } }
        set { mutable.withLock { $0.userInfo = newValue } }
    }

    /// The context for the next failure.
    func next(error: KingfisherError, userInfo: Any?) -> RetryContext {
        RetryContext(source: source, error: error, retriedCount: retriedCount + 1, userInfo: userInfo)
    }
}

/// A strategy's answer.
public enum RetryDecision: @unchecked Sendable {
    /// Load the source again; `userInfo` reaches the next ``RetryContext``.
    case retry(userInfo: Any?)
    /// Give up (alternative sources are tried next, if any).
    case stop
}

/// Decides whether and when a failed load is retried.
public protocol RetryStrategy: Sendable {
    /// Calls `retryHandler` once, now or later, with the decision for `context`.
    func retry(context: RetryContext, retryHandler: @escaping @Sendable (RetryDecision) -> Void)
}

/// Retries response errors up to a count, after a delay, as Kingfisher's; never a cancellation,
/// other errors (a body that is not an image is a processing error), or a limit of the
/// downloader (a body too large, a redirect loop), which the same request would reach again.
public struct DelayRetryStrategy: RetryStrategy {
    /// How long to wait before a retry.
    public enum Interval: Sendable {
        /// The same number of seconds each time.
        case seconds(TimeInterval)
        /// (retry number) × seconds: 1×, 2×, 3×, …
        case accumulated(TimeInterval)
        /// Seconds from the number of retries made so far.
        case custom(block: @Sendable (_ retriedCount: Int) -> TimeInterval)

        func timeInterval(for retriedCount: Int) -> TimeInterval {
            switch self {
            case .seconds(let seconds): return seconds
            case .accumulated(let seconds): return Double(retriedCount + 1) * seconds
            case .custom(let block): return block(retriedCount)
            }
        }
    }

    /// Retries allowed.
    public let maxRetryCount: Int
    /// The wait before each retry.
    public let retryInterval: Interval

    /// Creates a strategy.
    ///
    /// - Parameters:
    ///   - maxRetryCount: Retries allowed.
    ///   - retryInterval: Default `.seconds(3)`.
    public init(maxRetryCount: Int, retryInterval: Interval = .seconds(3)) {
        self.maxRetryCount = maxRetryCount
        self.retryInterval = retryInterval
    }

    public func retry(context: RetryContext, retryHandler: @escaping @Sendable (RetryDecision) -> Void) {
        guard context.retriedCount < maxRetryCount, !context.error.isCancellation,
            case .responseError = context.error, !context.error.isDownloadLimit
        else {
            return retryHandler(.stop)
        }
        let interval = retryInterval.timeInterval(for: context.retriedCount)
        if interval <= 0 { return retryHandler(.retry(userInfo: nil)) }
        // Kingfisher waits on the main queue; a server or command-line process may never run
        // it, so a global queue waits instead.
        DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + interval) {
            retryHandler(.retry(userInfo: nil))
        }
    }
}
