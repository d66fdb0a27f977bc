// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// One `retrieveImage` call in flight: the source being tried, the alternatives left, the
/// retry context, and what to cancel. Completes exactly once.
final class ImageRetrieval: Sendable {
    private struct State {
        var downloadTask: DownloadTask?
        /// Work of the retrieval's own that is not a download (a read of a tier below the disk).
        var work: Task<Void, Never>?
        var cancelled = false
        var completed = false
        /// Waiting for the retry strategy's decision (possibly a delay).
        var awaitingRetry = false
        /// Downloads started so far; only later ones are reported as updates.
        var downloads = 0
        var alternatives: [Source]
        var failures: [PropagationError] = []
        var retry: RetryContext?
    }

    let originalSource: Source
    let options: KingfisherParsedOptionsInfo
    private let state: Locked<State>
    private let completion: @Sendable (Result<RetrieveImageResult, KingfisherError>) -> Void
    private let downloadTaskUpdated: DownloadTaskUpdatedBlock?

    init(
        source: Source, options: KingfisherParsedOptionsInfo,
        downloadTaskUpdated: DownloadTaskUpdatedBlock?,
        completion: @escaping @Sendable (Result<RetrieveImageResult, KingfisherError>) -> Void
    ) {
        originalSource = source
        self.options = options
        var working = options
        working.callbackQueue = .untouch
        workingOptions = working
        self.downloadTaskUpdated = downloadTaskUpdated
        self.completion = completion
        state = Locked(State(alternatives: options.alternativeSources ?? []))
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// The options for the steps in between: the caller's, with callbacks where they happen
    /// (only the final result goes to the caller's callback queue). Made once: the options are
    /// a large value.
    let workingOptions: KingfisherParsedOptionsInfo

    /// The current download task, if a download runs.
    var downloadTask: DownloadTask? { state.withLock { $0.downloadTask } }

    /// The error a cancelled retrieval ends with.
    static let cancellation = KingfisherError.requestError(reason: .asyncTaskContextCancelled)

    /// Cancels whatever runs (a download, a provider's load, a tier read, a wait for a retry); the retrieval then
    /// fails with a cancellation, and a cache read that finishes later is not delivered.
    func cancel() {
        let (task, work, awaitingRetry, retry) = state.withLock { state in
            state.cancelled = true
            return (state.downloadTask, state.work, state.awaitingRetry, state.retry)
        }
        task?.cancel()
        work?.cancel()
        if awaitingRetry {
            // A strategy waiting for the network stops watching it.
            (retry?.userInfo as? any NetworkObserver)?.cancel()
            finish(.failure(Self.cancellation))
        }
    }

    /// Records a started download; tasks after the first (retries, alternatives) are reported
    /// through `downloadTaskUpdated` (the first is what `retrieveImage` returns).
    func started(_ task: DownloadTask?) {
        let (isUpdate, cancelled) = state.withLock { state -> (Bool, Bool) in
            state.downloads += 1
            state.downloadTask = task
            return (state.downloads > 1, state.cancelled)
        }
        if cancelled { task?.cancel() }
        if isUpdate { downloadTaskUpdated?(task) }
    }

    /// Records started work that is not a download (a read of a tier below the disk).
    func started(_ work: Task<Void, Never>) {
        let cancelled = state.withLock { state -> Bool in
            state.work = work
            return state.cancelled
        }
        if cancelled { work.cancel() }
    }

    /// The next step after `source` failed with `error`: a retry of the original source, the
    /// next alternative, or the end. `load` starts a source.
    func failed(_ source: Source, with error: KingfisherError, load: @escaping @Sendable (Source) -> Void) {
        if error.isCancellation || isCancelled { return finish(.failure(error)) }
        guard let strategy = options.retryStrategy else { return failover(source, with: error, load: load) }
        // Kept whatever the decision: the count runs across alternatives too.
        let context = state.withLock { state -> RetryContext in
            let context =
                state.retry.map { $0.next(error: error, userInfo: $0.userInfo) }
                ?? RetryContext(source: originalSource, error: error)
            state.retry = context
            state.awaitingRetry = true
            return context
        }
        strategy.retry(context: context) { decision in
            let cancelled = self.state.withLock { state -> Bool in
                state.awaitingRetry = false
                if case .retry(let userInfo) = decision {
                    state.retry = RetryContext(source: context.source, error: error, retriedCount: context.retriedCount, userInfo: userInfo)
                }
                return state.cancelled
            }
            if cancelled { return self.finish(.failure(Self.cancellation)) }
            switch decision {
            case .retry: load(self.originalSource)
            case .stop: self.failover(source, with: error, load: load)
            }
        }
    }

    private func failover(_ source: Source, with error: KingfisherError, load: @escaping @Sendable (Source) -> Void) {
        let next = state.withLock { state -> Source? in
            guard !state.alternatives.isEmpty else { return nil }
            state.failures.append(PropagationError(source: source, error: error))
            return state.alternatives.removeFirst()
        }
        if let next { return load(next) }
        let failures = state.withLock { state -> [PropagationError] in
            guard !state.failures.isEmpty else { return [] }
            state.failures.append(PropagationError(source: source, error: error))
            return state.failures
        }
        finish(.failure(failures.isEmpty ? error : .imageSettingError(reason: .alternativeSourcesExhausted(failures))))
    }

    /// Hands the outcome to the caller on the callback queue, once.
    func finish(_ result: Result<RetrieveImageResult, KingfisherError>) {
        let first = state.withLock { state -> Bool in
            defer { state.completed = true }
            return !state.completed
        }
        guard first else { return }
        options.callbackQueue.execute { self.completion(result) }
    }
}
