// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Progress or completion of an ``ImagePrefetcher`` created with URLs or resources: the
/// skipped (already cached), failed and completed ones so far.
public typealias PrefetcherProgressBlock =
    @Sendable (
        _ skippedResources: [any Resource], _ failedResources: [any Resource],
        _ completedResources: [any Resource]
    ) -> Void
/// The same for a prefetcher created with URLs or resources, at the end.
public typealias PrefetcherCompletionHandler = PrefetcherProgressBlock
/// Progress of an ``ImagePrefetcher`` created with sources.
public typealias PrefetcherSourceProgressBlock =
    @Sendable (
        _ skippedSources: [Source], _ failedSources: [Source],
        _ completedSources: [Source]
    ) -> Void
/// Completion of an ``ImagePrefetcher`` created with sources.
public typealias PrefetcherSourceCompletionHandler = PrefetcherSourceProgressBlock

/// Loads many images into the cache ahead of use, as Kingfisher's `ImagePrefetcher`: at most
/// ``maxConcurrentDownloads`` at a time, skipping what is cached (a disk-cached image is loaded
/// into memory instead with `alsoPrefetchToMemory`), downloading (with the options' processor,
/// retry strategy and caches) what is not. Only running items hold any work: 10 000 URLs are an
/// array and an index, not 10 000 tasks.
public final class ImagePrefetcher: Sendable {
    /// How a prefetch ended.
    public struct Summary: Sendable {
        /// Already cached, so not loaded.
        public let skipped: [Source]
        /// Failed, or stopped before finishing.
        public let failed: [Source]
        /// Loaded and cached.
        public let completed: [Source]
        /// Why each of ``failed`` failed, in the same order: the error its load ended with, or
        /// `nil` for an item stopped (``ImagePrefetcher/stop()``) before it started.
        public let failureReasons: [KingfisherError?]
    }

    private struct State {
        var maxConcurrent = 5
        var next = 0
        /// Items started and not yet ended, with their retrieval once there is one.
        var active: Set<Int> = []
        var retrievals: [Int: ImageRetrieval] = [:]
        var outcomes = Outcomes()
        /// A thread is in ``launchWhileFree()``; others leave the launching to it.
        var launching = false
        var started = false
        var stopped = false
        var finished = false
        var onFinish: [@Sendable (Summary) -> Void] = []
    }

    /// How an item ended.
    private enum Outcome {
        case skipped
        case failed(KingfisherError?)
        case completed
    }

    /// The items that ended so far, in order: sources, and for a prefetcher made from
    /// resources the resources they came from. Appended as items end, so handing a report to a
    /// callback copies nothing (Kingfisher's lists work the same way).
    private struct Outcomes {
        var skipped: [Source] = [], failed: [Source] = [], completed: [Source] = []
        var failureReasons: [KingfisherError?] = []
        var skippedResources: [any Resource] = [], failedResources: [any Resource] = [], completedResources: [any Resource] = []

        var count: Int { skipped.count + failed.count + completed.count }

        mutating func record(_ outcome: Outcome, source: Source, resource: (any Resource)?) {
            switch outcome {
            case .skipped:
                skipped.append(source)
                if let resource { skippedResources.append(resource) }
            case .failed(let reason):
                failed.append(source)
                failureReasons.append(reason)
                if let resource { failedResources.append(resource) }
            case .completed:
                completed.append(source)
                if let resource { completedResources.append(resource) }
            }
        }
    }

    private let sources: [Source]
    /// The resources the sources came from, for the resource-typed callbacks.
    private let resources: [any Resource]?
    private let options: KingfisherParsedOptionsInfo
    /// ``options`` with callbacks where the work finishes; only reports use the callback queue.
    private let workingOptions: KingfisherParsedOptionsInfo
    private let manager: KingfisherManager
    private let progress: (@Sendable (Outcomes) -> Void)?
    private let completion: (@Sendable (Outcomes) -> Void)?
    private let state = Locked(State())

    /// Items loaded at once. Default 5.
    public var maxConcurrentDownloads: Int {
        get { state.withLock { $0.maxConcurrent } }
        set { state.withLock { $0.maxConcurrent = max(1, newValue) } }
    }

    /// A prefetcher for `urls` (file URLs are read from disk).
    ///
    /// - Parameters:
    ///   - urls: The images to load.
    ///   - options: Options for every item (processor, caches, downloader, `forceRefresh`,
    ///     `alsoPrefetchToMemory`, `retryStrategy`, `callbackQueue`, …). Default `nil`.
    ///   - progressBlock: After each item, on `options.callbackQueue` (default
    ///     `.mainCurrentOrAsync`). Default `nil`.
    ///   - completionHandler: Once, when every item is done or the prefetch stopped. Default `nil`.
    public convenience init(
        urls: [URL], options: KingfisherOptionsInfo? = nil,
        progressBlock: PrefetcherProgressBlock? = nil, completionHandler: PrefetcherCompletionHandler? = nil
    ) {
        self.init(resources: urls, options: options, progressBlock: progressBlock, completionHandler: completionHandler)
    }

    /// A prefetcher for `resources`; see the URL form.
    public convenience init(
        resources: [any Resource], options: KingfisherOptionsInfo? = nil,
        progressBlock: PrefetcherProgressBlock? = nil, completionHandler: PrefetcherCompletionHandler? = nil
    ) {
        func adapt(_ block: PrefetcherProgressBlock?) -> (@Sendable (Outcomes) -> Void)? {
            guard let block else { return nil }
            return { block($0.skippedResources, $0.failedResources, $0.completedResources) }
        }
        self.init(
            sources: resources.map { $0.convertToSource() }, resources: resources, options: options,
            progress: adapt(progressBlock), completion: adapt(completionHandler))
    }

    /// A prefetcher for `sources`; see the URL form.
    public convenience init(
        sources: [Source], options: KingfisherOptionsInfo? = nil,
        progressBlock: PrefetcherSourceProgressBlock? = nil,
        completionHandler: PrefetcherSourceCompletionHandler? = nil
    ) {
        func adapt(_ block: PrefetcherSourceProgressBlock?) -> (@Sendable (Outcomes) -> Void)? {
            guard let block else { return nil }
            return { block($0.skipped, $0.failed, $0.completed) }
        }
        self.init(
            sources: sources, resources: nil, options: options, progress: adapt(progressBlock),
            completion: adapt(completionHandler))
    }

    private init(
        sources: [Source], resources: [any Resource]?, options: KingfisherOptionsInfo?,
        progress: (@Sendable (Outcomes) -> Void)?, completion: (@Sendable (Outcomes) -> Void)?
    ) {
        self.sources = sources
        self.resources = resources
        // As Kingfisher: the shared manager's default options, then these.
        let parsed = KingfisherParsedOptionsInfo(KingfisherManager.shared.defaultOptions + (options ?? []))
        self.options = parsed
        var working = parsed
        working.callbackQueue = .untouch
        workingOptions = working
        manager = KingfisherManager(downloader: parsed.downloader ?? .default, cache: parsed.targetCache ?? .default)
        self.progress = progress
        self.completion = completion
    }

    // MARK: Running

    /// Starts prefetching (once; later calls do nothing).
    public func start() {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        launchWhileFree()
        finishIfDone()
    }

    /// Prefetches and returns how it went (beyond Kingfisher: the async form of ``start()``
    /// with the completion handler's lists).
    public func run() async -> Summary {
        await withCheckedContinuation { continuation in
            let alreadyDone = state.withLock { state -> Summary? in
                guard !state.finished else { return Self.summary(state.outcomes) }
                state.onFinish.append { continuation.resume(returning: $0) }
                return nil
            }
            if let alreadyDone { return continuation.resume(returning: alreadyDone) }
            start()
        }
    }

    /// Stops: items not started, and running items (cancelled), are reported as failed.
    public func stop() {
        let running = state.withLock { state -> [ImageRetrieval] in
            guard !state.finished, !state.stopped else { return [] }
            state.stopped = true
            for index in state.next..<sources.count {
                state.outcomes.record(.failed(nil), source: sources[index], resource: resources?[index])
            }
            state.next = sources.count
            return Array(state.retrievals.values)
        }
        for retrieval in running { retrieval.cancel() }
        finishIfDone()
    }

    /// Starts items while slots are free. One thread launches at a time, and items that end at
    /// once (cached ones) do not recurse into here: a list of cached URLs is a loop, not a stack.
    private func launchWhileFree() {
        let launcher = state.withLock { state -> Bool in
            defer { state.launching = true }
            return !state.launching
        }
        guard launcher else { return }
        while let index = state.withLock({ state -> Int? in
            guard !state.stopped, state.next < sources.count, state.active.count < state.maxConcurrent else {
                // Checked and released under one lock: an item ending after this launches itself.
                state.launching = false
                return nil
            }
            defer { state.next += 1 }
            state.active.insert(state.next)
            return state.next
        }) {
            prefetch(index)
        }
    }

    private func prefetch(_ index: Int) {
        let source = sources[index]
        let options = workingOptions
        let cache = options.targetCache ?? manager.cache
        // Following HTTP caching, a cached image counts only while its response is fresh; a
        // stale one is revalidated by the retrieval.
        var stale = false
        if options.httpCachePolicy == .followHeaders, case .network = source {
            stale = cache.httpRecords.record(forKey: source.cacheKey, disk: cache.diskStorage)?.isFresh(at: Date()) != true
        }
        if !options.forceRefresh, !stale {
            let cached = cache.imageCachedType(
                forKey: source.cacheKey, processorIdentifier: options.processor.identifier,
                forcedExtension: options.forcedExtension)
            if cached == .memory || (cached == .disk && !options.alsoPrefetchToMemory) {
                return itemEnded(index, as: .skipped)
            }
            if cached == .disk {
                // Loaded into memory, and counted as skipped (as Kingfisher, whatever the read gave).
                return cache.retrieveImage(forKey: source.cacheKey, options: options, callbackQueue: options.callbackQueue) { _ in
                    self.itemEnded(index, as: .skipped)
                }
            }
        }
        let retrieval = manager.retrieve(
            source, options: options, progressBlock: nil, downloadTaskUpdated: nil,
            // Memory and disk were looked at; tiers below the disk were not.
            targetCacheChecked: !options.forceRefresh && !stale && cache.tiersBelowDisk.isEmpty
        ) { result in
            switch result {
            case .success: self.itemEnded(index, as: .completed)
            case .failure(let error): self.itemEnded(index, as: .failed(error))
            }
        }
        let stopped = state.withLock { state -> Bool in
            guard state.active.contains(index) else { return false }
            state.retrievals[index] = retrieval
            return state.stopped
        }
        if stopped { retrieval.cancel() }
    }

    private func itemEnded(_ index: Int, as outcome: Outcome) {
        let snapshot = state.withLock { state -> Outcomes? in
            guard state.active.remove(index) != nil else { return nil }
            state.retrievals[index] = nil
            state.outcomes.record(outcome, source: sources[index], resource: resources?[index])
            return state.outcomes
        }
        guard let snapshot else { return }
        // Dropped once the completion went out (it carries the final lists). A report racing
        // the completion from another thread may still arrive just after it.
        if let progress, !state.withLock({ $0.finished }) {
            options.callbackQueue.execute { progress(snapshot) }
        }
        launchWhileFree()
        finishIfDone()
    }

    private func finishIfDone() {
        let ended = state.withLock { state -> (Outcomes, [@Sendable (Summary) -> Void])? in
            guard !state.finished, state.started, state.outcomes.count == sources.count, state.active.isEmpty else { return nil }
            state.finished = true
            defer { state.onFinish = [] }
            return (state.outcomes, state.onFinish)
        }
        guard let (outcomes, waiters) = ended else { return }
        if let completion { options.callbackQueue.execute { completion(outcomes) } }
        let summary = Self.summary(outcomes)
        for waiter in waiters { waiter(summary) }
    }

    private static func summary(_ outcomes: Outcomes) -> Summary {
        Summary(
            skipped: outcomes.skipped, failed: outcomes.failed, completed: outcomes.completed,
            failureReasons: outcomes.failureReasons)
    }
}

extension ImagePrefetcher: CustomStringConvertible {
    /// The prefetcher's address, as Kingfisher's: tells two prefetchers apart in logs.
    public var description: String { "\(Unmanaged.passUnretained(self).toOpaque())" }
}
