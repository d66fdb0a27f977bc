// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads images over HTTP, as Kingfisher's `ImageDownloader`, on AsyncHTTPClient by default.
///
/// Concurrent requests for the same URL share one HTTP request; each caller gets its image
/// through its own processor (each distinct processor runs once per download) on its own
/// callback queue. Cancelling one caller ends only that caller; the request stops when the last
/// one cancels. At most ``maxConcurrentDownloads`` run at once; waiting downloads start by
/// priority.
///
/// The class is `open`, as Kingfisher's: a subclass may override the `downloadImage` methods
/// taking a completion handler (``KingfisherManager`` downloads through
/// ``downloadImage(with:options:progressBlock:completionHandler:)-(_,KingfisherParsedOptionsInfo,_,_)``)
/// and the settings Kingfisher marks `open`. A subclass is `Sendable` unchecked, as in
/// Kingfisher: guard its own mutable state with a lock.
// @unchecked: a non-final class cannot be checked; every stored property is a constant or a
// `Locked`, so the class is Sendable as the final one was. A subclass inherits the conformance
// unchecked (as Kingfisher's do): its own mutable state must be guarded too.
open class ImageDownloader: @unchecked Sendable {
    /// The shared downloader named "default".
    public static let `default` = ImageDownloader(name: "default")

    /// The priority downloads get unless options say otherwise: 0.5 (URLSessionTask's default).
    public static let defaultPriority: Float = 0.5

    struct Settings: Sendable {
        var downloadTimeout: TimeInterval = 15
        var maxDownloadDuration: TimeInterval = 120
        var maxConcurrentDownloads = 16
        var redirectLimit = 10
        var maxResponseDataSize = ImageDownloader.defaultMaximumResponseDataSize
        var trustedHosts: Set<String>?
        var requestsUsePipelining = false
        var session = SessionSettings()
    }

    /// Downloads are shared by URL; a conditional one only with callers sending the same validators.
    private struct OperationKey: Hashable {
        var url: URL
        var validators: HTTPValidators?
    }

    private struct Registry {
        var operations: [OperationKey: DownloadOperation] = [:]
        var nextToken = 0
        var nextSequence = 0
    }

    private final class WeakDelegate: @unchecked Sendable {
        // Only read and written inside `delegateBox`'s lock.
        weak var value: (any ImageDownloaderDelegate)?
        weak var authenticationChallengeResponder: (any AuthenticationChallengeResponsible)?
    }

    /// The downloader's name.
    public let name: String
    /// The transport moving the bytes. Default ``AsyncHTTPClientTransport/shared`` (8
    /// connections per host; HTTP/2 when offered); ``sessionConfiguration`` may replace the default
    /// one with a transport of its own.
    public var transport: any ImageDownloaderTransport { transports.withLock { $0.current } }
    let transports: Locked<TransportSlot>
    let settings = Locked(Settings())
    private let registry = Locked(Registry())
    private let delegateBox = Locked(WeakDelegate())
    let scheduler: DownloadScheduler
    /// Partial bodies of broken downloads, for the next attempt to resume.
    let resumableData = ResumableDataStore(limit: ImageDownloader.defaultResumableDataLimit)
    /// Where processors run unless a caller's `processingQueue` option names another: concurrent,
    /// so that images arriving together decode on every core.
    let processingQueue: DispatchQueue

    /// Creates a downloader. An empty name is a programmer error.
    ///
    /// - Parameters:
    ///   - name: The downloader's name; it also names its processing queue.
    ///   - transport: The transport; default ``AsyncHTTPClientTransport/shared``.
    public init(name: String, transport: any ImageDownloaderTransport = AsyncHTTPClientTransport.shared) {
        precondition(
            !name.isEmpty, "[Kingfisher] You should specify a name for the downloader. A downloader with empty name is not permitted.")
        self.name = name
        transports = Locked(TransportSlot(current: transport))
        processingQueue = DispatchQueue(label: "com.onevcat.Kingfisher.ImageDownloader.Process.\(name)", attributes: .concurrent)
        let settings = self.settings
        scheduler = DownloadScheduler(limit: { settings.withLock { $0.maxConcurrentDownloads } })
    }

    /// min(200 MB, 10% of the memory available to the process).
    public static var defaultMaximumResponseDataSize: Int {
        Int(min(200_000_000, AvailableMemory.bytes() / 10))
    }

    /// Seconds a request may go without progress (connecting, waiting, or between body chunks)
    /// before it fails with a timeout. Default 15.
    open var downloadTimeout: TimeInterval {
        get { settings.withLock { $0.downloadTimeout } }
        set { settings.withLock { $0.downloadTimeout = newValue } }
    }

    /// Seconds a download may take in all (redirects included) before it fails with a timeout,
    /// however steadily bytes arrive: a server trickling a body a byte at a time never trips
    /// ``downloadTimeout``. 0 or less: no limit. Default 120 (like URLSession's
    /// `timeoutIntervalForResource`, which Kingfisher leaves at 7 days).
    public var maxDownloadDuration: TimeInterval {
        get { settings.withLock { $0.maxDownloadDuration } }
        set { settings.withLock { $0.maxDownloadDuration = newValue } }
    }

    /// Downloads running at once; more wait, highest priority first. Default 16. (Connections
    /// per host are the transport's: 8 for ``AsyncHTTPClientTransport/shared``.)
    public var maxConcurrentDownloads: Int {
        get { settings.withLock { $0.maxConcurrentDownloads } }
        set {
            settings.withLock { $0.maxConcurrentDownloads = max(1, newValue) }
            scheduler.startWaiting()
        }
    }

    /// Redirects followed per download before failing with `URLError.httpTooManyRedirects`. Default 10.
    public var redirectLimit: Int {
        get { settings.withLock { $0.redirectLimit } }
        set { settings.withLock { $0.redirectLimit = max(0, newValue) } }
    }

    /// The largest body accepted, in bytes; larger bodies (or Content-Lengths) stop reading and
    /// fail with `URLError.dataLengthExceedsMaximum`. Default ``defaultMaximumResponseDataSize``.
    public var maxResponseDataSize: Int {
        get { settings.withLock { $0.maxResponseDataSize } }
        set { settings.withLock { $0.maxResponseDataSize = newValue } }
    }

    /// The most bytes of broken downloads' partial bodies kept in memory, so that the next
    /// download of the same URL (a retry) asks only for the rest with `Range` and `If-Range`
    /// (a `206` is appended; a `200`, sent when the image changed, starts over). Kept only for
    /// origins that can resume (a strong `ETag` or a `Last-Modified`, and `Accept-Ranges: bytes`),
    /// for 10 minutes at most. 0 turns resuming off. Default ``defaultResumableDataLimit``.
    public var resumableDataLimit: Int {
        get { resumableData.limit }
        set { resumableData.limit = newValue }
    }

    /// 32 MB.
    public static let defaultResumableDataLimit = 32 << 20

    /// Kingfisher's HTTP pipelining switch. AsyncHTTPClient never pipelines HTTP/1.1 requests (it
    /// multiplexes over HTTP/2 instead), and Foundation deprecates the request flag, so it is kept
    /// and has no effect. Default `false`.
    @available(*, deprecated, message: "no effect on Linux: AsyncHTTPClient never pipelines; HTTP/2 multiplexes")
    open var requestsUsePipelining: Bool {
        get { settings.withLock { $0.requestsUsePipelining } }
        set { settings.withLock { $0.requestsUsePipelining = newValue } }
    }

    /// Hosts whose self-signed TLS certificates are accepted. Default `nil` (none).
    open var trustedHosts: Set<String>? {
        get { settings.withLock { $0.trustedHosts } }
        set { settings.withLock { $0.trustedHosts = newValue } }
    }

    /// Answers a `401` with credentials, once per download; held weakly. Default `nil`: a `401`
    /// fails the download with `invalidHTTPStatusCode`.
    open var authenticationChallengeResponder: (any AuthenticationChallengeResponsible)? {
        get { delegateBox.withLock { $0.authenticationChallengeResponder } }
        set { delegateBox.withLock { $0.authenticationChallengeResponder = newValue } }
    }

    /// The delegate, held weakly. Default `nil`.
    open var delegate: (any ImageDownloaderDelegate)? {
        get { delegateBox.withLock { $0.value } }
        set { delegateBox.withLock { $0.value = newValue } }
    }

    // MARK: Downloading

    /// Downloads the image at `url`, as Kingfisher's method: returns the caller's task at once;
    /// `completionHandler` runs on `options.callbackQueue` (default `.mainCurrentOrAsync`).
    @discardableResult
    open func downloadImage(
        with url: URL, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil,
        completionHandler: (@Sendable (Result<ImageLoadingResult, KingfisherError>) -> Void)? = nil
    ) -> DownloadTask {
        downloadImage(
            with: url, options: KingfisherParsedOptionsInfo(options), progressBlock: progressBlock,
            completionHandler: completionHandler)
    }

    /// The same without a progress block.
    @discardableResult
    open func downloadImage(
        with url: URL, options: KingfisherOptionsInfo? = nil,
        completionHandler: (@Sendable (Result<ImageLoadingResult, KingfisherError>) -> Void)? = nil
    ) -> DownloadTask {
        downloadImage(
            with: url, options: KingfisherParsedOptionsInfo(options), progressBlock: nil,
            completionHandler: completionHandler)
    }

    /// The same with parsed options (processor, request modifier, redirect handler, priority,
    /// callback queue).
    @discardableResult
    open func downloadImage(
        with url: URL, options: KingfisherParsedOptionsInfo,
        progressBlock: DownloadProgressBlock? = nil,
        completionHandler: (@Sendable (Result<ImageLoadingResult, KingfisherError>) -> Void)? = nil
    ) -> DownloadTask {
        download(url, options: options, validators: nil, progressBlock: progressBlock) { outcome in
            completionHandler?(outcome.flatMap { $0.downloaded.map { loaded, response in loaded.carrying(response) } })
        }
    }

    /// Downloads `url`, conditionally when `validators` are given (sending `If-None-Match` /
    /// `If-Modified-Since`, so that the origin may answer `304`), reporting the response too.
    @discardableResult
    func download(
        _ url: URL, options: KingfisherParsedOptionsInfo, validators: HTTPValidators?,
        progressBlock: DownloadProgressBlock? = nil, takesData: Bool = false,
        completion: @escaping @Sendable (Result<DownloadOperation.Outcome, KingfisherError>) -> Void
    ) -> DownloadTask {
        let token = registry.withLock { registry -> Int in
            registry.nextToken += 1
            return registry.nextToken
        }
        let task = DownloadTask(token: token, url: url, priority: options.downloadPriority)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: downloadTimeout)
        settings.withLock { $0.session }.apply(to: &request)
        if let modifier = options.requestModifier {
            if let synchronous = modifier as? any ImageDownloadRequestModifier {
                enqueue(
                    synchronous.modified(for: request), validators: validators, task: task, options: options, progress: progressBlock,
                    takesData: takesData, completion: completion)
                modifier.onDownloadTaskStarted?(task)
            } else {
                OffPoolExecutor.task {
                    let modified = await modifier.modified(for: request)
                    self.enqueue(
                        modified, validators: validators, task: task, options: options, progress: progressBlock,
                        takesData: takesData, completion: completion)
                    modifier.onDownloadTaskStarted?(task)
                }
            }
        } else {
            enqueue(
                request, validators: validators, task: task, options: options, progress: progressBlock, takesData: takesData,
                completion: completion)
        }
        return task
    }

    /// Downloads the image at `url`; cancelling the calling task cancels this caller's share.
    public func downloadImage(with url: URL, options: KingfisherParsedOptionsInfo) async throws -> ImageLoadingResult {
        try await downloadImage(with: url, parsedOptions: options, progressBlock: nil)
    }

    /// The same with an options array, reporting progress to `progressBlock` (default `nil`).
    public func downloadImage(
        with url: URL, options: KingfisherOptionsInfo? = nil,
        progressBlock: DownloadProgressBlock? = nil
    ) async throws -> ImageLoadingResult {
        try await downloadImage(with: url, parsedOptions: KingfisherParsedOptionsInfo(options), progressBlock: progressBlock)
    }

    /// The same with an options array.
    public func downloadImage(with url: URL, options: KingfisherOptionsInfo? = nil) async throws -> ImageLoadingResult {
        try await downloadImage(with: url, parsedOptions: KingfisherParsedOptionsInfo(options), progressBlock: nil)
    }

    private func downloadImage(
        with url: URL, parsedOptions: KingfisherParsedOptionsInfo,
        progressBlock: DownloadProgressBlock?
    ) async throws -> ImageLoadingResult {
        var options = parsedOptions
        options.callbackQueue = .untouch
        return try await withCancellableWork(
            start: { completion in
                downloadImage(with: url, options: options, progressBlock: progressBlock, completionHandler: completion)
            }, cancel: { $0.cancel() })
    }

    private func enqueue(
        _ request: URLRequest?, validators: HTTPValidators?, task: DownloadTask, options: KingfisherParsedOptionsInfo,
        progress: DownloadProgressBlock?, takesData: Bool,
        completion: @escaping @Sendable (Result<DownloadOperation.Outcome, KingfisherError>) -> Void
    ) {
        func fail(_ error: KingfisherError) { options.callbackQueue.execute { completion(.failure(error)) } }
        guard var request else { return fail(.requestError(reason: .emptyRequest)) }
        guard let url = request.url, DownloadFetch.isFollowable(url) else {
            return fail(.requestError(reason: .invalidURL(request: request)))
        }
        validators?.apply(to: &request)
        let caller = DownloadOperation.Caller(
            task: task, options: options, progress: progress, takesData: takesData, completion: completion)
        let key = OperationKey(url: url, validators: validators)
        let (operation, isNew, raised) = registry.withLock { registry -> (DownloadOperation, Bool, Bool) in
            if let existing = registry.operations[key], let raised = existing.add(caller) { return (existing, false, raised) }
            registry.nextSequence += 1
            let operation = DownloadOperation(
                request: request, url: url, validators: validators, priority: task.priority,
                sequence: registry.nextSequence, downloader: self)
            _ = operation.add(caller)
            registry.operations[key] = operation
            return (operation, true, false)
        }
        if raised { scheduler.reprioritize(operation, to: operation.priority) }
        // A task cancelled before it joined leaves at once; the download still goes ahead (or
        // ends) for whoever else joined it meanwhile.
        if !task.link(operation) { operation.cancel(caller: task) }
        if isNew {
            delegate?.imageDownloader(self, willDownloadImageForURL: url, with: request)
            scheduler.enqueue(operation)
        }
    }

    /// Called exactly when a download leaves the running or waiting set (idempotent).
    func operationEnded(_ operation: DownloadOperation) {
        registry.withLock { registry in
            let key = OperationKey(url: operation.url, validators: operation.validators)
            if registry.operations[key] === operation { registry.operations[key] = nil }
        }
        scheduler.ended(operation)
    }

    // MARK: Cancelling

    /// Cancels every caller of the download of `url`.
    public func cancel(url: URL) {
        let operations = registry.withLock { $0.operations.filter { $0.key.url == url }.map(\.value) }
        for operation in operations { operation.cancelAll() }
    }

    /// Cancels every download.
    public func cancelAll() {
        let operations = registry.withLock { Array($0.operations.values) }
        for operation in operations { operation.cancelAll() }
    }

    /// How many downloads run and wait right now.
    public var activeDownloadCount: (running: Int, waiting: Int) {
        let counts = scheduler.counts
        return (counts.running, counts.pending)
    }
}

extension DownloadOperation {
    /// Cancels every caller.
    func cancelAll() {
        for task in callerTasks { task.cancel() }
    }
}
