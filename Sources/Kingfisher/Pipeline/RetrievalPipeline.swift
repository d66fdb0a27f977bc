// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A retrieval as one typed path through ordered tiers, the fetch and the processing.
///
/// For a ``RetrievalRequest``: the processed image from the first of ``processedTiers`` that
/// has it; else the original's bytes from the first of ``originalTiers`` that has them,
/// processed; else the source, fetched and processed. When an original tier offers a
/// ``CacheTierSingleFlight`` (Redis), the fetch is made once among the processes sharing it:
/// the others wait, then process what it stored. What a retrieval makes is stored before it
/// answers: the original in every original tier above the one it came from, the processed
/// image in every processed tier. A tier's failures only make it miss, and bytes in a tier
/// that do not decode count as a miss too.
///
/// The answer says which step answered and where the time went; a failure is a
/// ``KingfisherError``, with a download's failures as ``DownloadFailure`` values.
public struct RetrievalPipeline: Sendable {
    /// Tiers of processed images, fastest first, keyed by ``RetrievalRequest/processedKey``.
    /// Default none.
    public var processedTiers: [any CacheTier<KFCrossPlatformImage>]
    /// Tiers of originals' bytes, fastest first, keyed by ``RetrievalRequest/originalKey``.
    /// Default none.
    public var originalTiers: [any CacheTier<Data>]
    /// Downloads network sources (through its open `downloadImage` method, so that a subclass
    /// is asked). Default ``ImageDownloader/default``.
    public var downloader: ImageDownloader
    /// Where originals from tiers and data providers are decoded and processed, off Swift's
    /// cooperative pool. Default ``defaultProcessingQueue``.
    public var processingQueue: DispatchQueue

    /// A concurrent queue shared by pipelines that name none.
    public static let defaultProcessingQueue = DispatchQueue(
        label: "com.kingfisher-linux.RetrievalPipeline.processing", qos: .userInitiated, attributes: .concurrent)

    /// A pipeline; see each property for its default.
    public init(
        processedTiers: [any CacheTier<KFCrossPlatformImage>] = [], originalTiers: [any CacheTier<Data>] = [],
        downloader: ImageDownloader = .default, processingQueue: DispatchQueue = RetrievalPipeline.defaultProcessingQueue
    ) {
        self.processedTiers = processedTiers
        self.originalTiers = originalTiers
        self.downloader = downloader
        self.processingQueue = processingQueue
    }

    /// The processed image for `request`, and which step answered; cancelling the calling task
    /// cancels the work (``KingfisherError/RequestErrorReason/asyncTaskContextCancelled``).
    public func retrieve(_ request: RetrievalRequest) async throws(KingfisherError) -> RetrievalResponse {
        var progress = Progress(request: request)
        try Self.checkCancellation()
        let options = request.parsedOptions(downloader: downloader)
        if request.searchesTiers {
            let processedKey = request.processedKey
            for tier in processedTiers {
                guard let image = try? await tier.get(processedKey) else { continue }
                progress.lookupEnded()
                return progress.response(image: image, original: nil, answeredBy: .processedTier(tier.name))
            }
            for (index, tier) in originalTiers.enumerated() {
                try Self.checkCancellation()
                guard let data = try? await tier.get(request.originalKey) else { continue }
                progress.lookupEnded()
                guard let image = try await processedOriginal(data, options: options, gate: request.processingGate, progress: &progress)
                else { continue }
                await keep(original: data, in: originalTiers.prefix(index), processed: image, request: request)
                return progress.response(image: image, original: data, answeredBy: .originalTier(tier.name))
            }
        }
        progress.lookupEnded()
        try Self.checkCancellation()
        guard request.fetchesSource else { throw .cacheError(reason: .imageNotExisting(key: request.originalKey)) }
        return try await fromSource(request, options: options, progress: &progress)
    }

    // MARK: The steps

    /// What the fetch step had: the original a process sharing the tier stored, or its own fetch.
    private enum FlightResult: Sendable {
        case stored(Data)
        case fetched(Fetched)
    }

    /// A source fetched and processed.
    private struct Fetched: Sendable {
        var image: KFCrossPlatformImage
        var data: Data
        var metrics: NetworkMetrics?
        var fetch: Duration
        var processing: Duration
        /// Whether the original may be stored (a `no-store` response may not).
        var mayBeStored = true
    }

    /// The source, fetched here or by the process holding the original tier's single flight.
    private func fromSource(
        _ request: RetrievalRequest, options: KingfisherParsedOptionsInfo, progress: inout Progress
    ) async throws(KingfisherError) -> RetrievalResponse {
        let flights = originalTiers.enumerated().lazy.compactMap { index, tier in tier.singleFlight.map { (index, tier, $0) } }
        guard request.searchesTiers, request.storesOriginal, let (index, tier, flight) = flights.first else {
            return progress.response(try await fetchAndKeep(request, options: options).fetched)
        }
        let key = request.originalKey
        let waitStarted = ContinuousClock.now
        let had: FlightResult
        do {
            had = try await flight.run(
                forKey: key, find: { (try? await tier.get(key)).map(FlightResult.stored) },
                // The others are told once it is stored, so that they find it.
                make: { () async throws -> (FlightResult, kept: (@Sendable () async -> Void)?) in
                    let (fetched, storing) = try await fetchAndKeep(request, options: options)
                    guard let storing else { return (.fetched(fetched), kept: nil) }
                    return (.fetched(fetched), kept: { await storing.value })
                }
            ).0
        } catch let error as KingfisherError {
            throw error
        } catch {
            throw .requestError(reason: .asyncTaskContextCancelled)
        }
        switch had {
        case .fetched(let fetched):
            return progress.response(fetched)
        case .stored(let data):
            progress.timings.fetch = waitStarted.duration(to: .now)
            guard let image = try await processedOriginal(data, options: options, gate: request.processingGate, progress: &progress)
            else {
                // What the other process stored does not decode here: fetch it for this one.
                return progress.response(try await fetchAndKeep(request, options: options).fetched)
            }
            await keep(original: data, in: originalTiers.prefix(index), processed: image, request: request)
            return progress.response(image: image, original: data, answeredBy: .originalTier(tier.name))
        }
    }

    /// ``fetch(_:options:)``, then the original stored in every original tier (when the
    /// request and the response allow it) and the processed image in every processed tier;
    /// `storing` is the stores still running when the request does not wait for them.
    private func fetchAndKeep(
        _ request: RetrievalRequest, options: KingfisherParsedOptionsInfo
    ) async throws(KingfisherError) -> (fetched: Fetched, storing: Task<Void, Never>?) {
        let fetched = try await fetch(request, options: options)
        let originals = request.storesOriginal && fetched.mayBeStored ? originalTiers[...] : []
        let storing = await keep(original: fetched.data, in: originals, processed: fetched.image, request: request)
        return (fetched, storing)
    }

    /// Downloads or loads the source and processes it.
    private func fetch(_ request: RetrievalRequest, options: KingfisherParsedOptionsInfo) async throws(KingfisherError) -> Fetched {
        let started = ContinuousClock.now
        switch request.source {
        case .network(let resource):
            if let gate = request.processingGate {
                return try await fetchThenProcess(resource.downloadURL, options: options, gate: gate, request)
            }
            let loaded: ImageLoadingResult
            let requestTime = Date()
            let (progressBlock, downloadStarted) = (request.progressBlock, request.caller?.downloadStarted)
            // Through the open callback method, so that a subclass of the downloader is asked.
            loaded = try await Self.downloading(startedBy: downloadStarted) { completion in
                downloader.downloadImage(
                    with: resource.downloadURL, options: options, progressBlock: progressBlock, completionHandler: completion)
            }
            // The downloader decodes and processes as the body ends: the rest is processing.
            let total = started.duration(to: .now)
            let network = min(loaded.metrics.map { Duration.seconds($0.totalRequestDuration) } ?? total, total)
            return Fetched(
                image: loaded.image, data: loaded.originalData, metrics: loaded.metrics, fetch: network, processing: total - network,
                mayBeStored: request.caller?.mayStoreFetched?(loaded, requestTime) ?? true)
        case .provider(let provider):
            let data: Data
            do {
                data = try await provider.data()
            } catch {
                if Task.isCancelled { throw .requestError(reason: .dataProviderCancelled(provider: provider)) }
                throw .imageSettingError(reason: .dataProviderError(provider: provider, error: error))
            }
            let loaded = ContinuousClock.now
            try Self.checkCancellation()
            let (image, processing) = try await process(data, options: options, gate: request.processingGate)
            return Fetched(image: image, data: data, metrics: nil, fetch: started.duration(to: loaded), processing: processing)
        }
    }

    /// Downloads `url`'s bytes undecoded, then decodes and processes them in the gate's turn.
    private func fetchThenProcess(
        _ url: URL, options: KingfisherParsedOptionsInfo, gate: any RetrievalProcessingGate, _ request: RetrievalRequest
    ) async throws(KingfisherError) -> Fetched {
        let started = ContinuousClock.now
        let requestTime = Date()
        let (progressBlock, downloadStarted) = (request.progressBlock, request.caller?.downloadStarted)
        let body: DownloadFetch.Body = try await Self.downloading(startedBy: downloadStarted) { completion in
            downloader.download(url, options: options, validators: nil, progressBlock: progressBlock, takesData: true) {
                completion($0.flatMap(Self.fetchedBody))
            }
        }
        let fetch = started.duration(to: .now)
        try Self.checkCancellation()
        let image: KFCrossPlatformImage
        let processing: Duration
        do {
            (image, processing) = try await process(body.data, options: options, gate: gate)
        } catch {
            throw error.downloaded(from: url, contentType: body.response.value(forHTTPHeaderField: "Content-Type"))
        }
        let loaded = ImageLoadingResult(image: image, url: url, originalData: body.data, metrics: body.metrics).carrying(body.response)
        return Fetched(
            image: image, data: body.data, metrics: body.metrics, fetch: fetch, processing: processing,
            mayBeStored: request.caller?.mayStoreFetched?(loaded, requestTime) ?? true)
    }

    /// The value of the download `start` starts, told to `started` as it starts, and cancelled
    /// with the calling task.
    static func downloading<Value: Sendable>(
        startedBy started: (@Sendable (DownloadTask) -> Void)?,
        _ start: (@escaping @Sendable (Result<Value, KingfisherError>) -> Void) -> DownloadTask
    ) async throws(KingfisherError) -> Value {
        do {
            return try await withCancellableWork(
                start: { completion in
                    let task = start(completion)
                    started?(task)
                    return task
                }, cancel: { $0.cancel() })
        } catch let error as KingfisherError {
            throw error
        } catch {
            throw .requestError(reason: .asyncTaskContextCancelled)
        }
    }

    /// The body of a download that took its bytes undecoded.
    private static func fetchedBody(_ outcome: DownloadOperation.Outcome) -> Result<DownloadFetch.Body, KingfisherError> {
        switch outcome {
        case .fetched(_, let body): return .success(body)
        // Not asked for (this download takes bytes): a status without an image.
        case .downloaded(_, let response), .notModified(let response):
            return .failure(.responseError(reason: .invalidHTTPStatusCode(response: response.httpURLResponse)))
        }
    }

    /// `data` from a tier, processed; `nil` when it is not a usable image (a miss).
    private func processedOriginal(
        _ data: Data, options: KingfisherParsedOptionsInfo, gate: (any RetrievalProcessingGate)?, progress: inout Progress
    ) async throws(KingfisherError) -> KFCrossPlatformImage? {
        do {
            let (image, processing) = try await process(data, options: options, gate: gate)
            progress.timings.processing = processing
            return image
        } catch {
            // Bytes that are not an image are a miss; an image over the request's limits is
            // refused as it would be fetched (fetching it again would only fail again).
            switch error.imageCodingError {
            case nil, .tooManyPixels?, .tooManyFrames?, .overLimit?: throw error
            default: return nil
            }
        }
    }

    /// `data` decoded and processed on ``processingQueue`` (or the options' own), in the gate's
    /// turn when there is one, and how long that took (the wait for the turn not counted).
    private func process(
        _ data: Data, options: KingfisherParsedOptionsInfo, gate: (any RetrievalProcessingGate)?
    ) async throws(KingfisherError) -> (KFCrossPlatformImage, Duration) {
        var leave: (@Sendable () -> Void)?
        if let gate {
            guard let turn = await gate.enter() else { throw .requestError(reason: .asyncTaskContextCancelled) }
            leave = turn
        }
        defer { leave?() }
        try Self.checkCancellation()
        let started = ContinuousClock.now
        let queue = options.processingQueue ?? .dispatch(processingQueue)
        // Cancelling the retrieval stops the pixel work too, not only the wait for it.
        let processed = try await queue.performInterruptibly { () throws(KingfisherError) in
            try options.processor.processedImage(from: data, options: options)
        }
        guard let image = processed else { throw .requestError(reason: .asyncTaskContextCancelled) }
        return (image, started.duration(to: .now))
    }

    /// Stores the original in `tiers` and the processed image in the processed tiers, all at
    /// once. Returns when each stored it or failed to, or at once with the task storing them
    /// when the request does not wait for its stores.
    @discardableResult
    private func keep(
        original: Data, in tiers: ArraySlice<any CacheTier<Data>>, processed image: KFCrossPlatformImage,
        request: RetrievalRequest
    ) async -> Task<Void, Never>? {
        let processedKey = request.processedKey
        let originalKey = request.originalKey
        let expiration = request.expiration
        let processedTiers = processedTiers
        guard !tiers.isEmpty || !processedTiers.isEmpty else { return nil }
        let stores: @Sendable () async -> Void = {
            await withTaskGroup(of: Void.self) { group in
                for tier in tiers {
                    group.addTask { try? await tier.put(original, forKey: originalKey, expiration: expiration) }
                }
                for tier in processedTiers {
                    group.addTask { try? await tier.put(image, forKey: processedKey, expiration: nil) }
                }
            }
        }
        guard request.waitsForStores else { return Task(operation: stores) }
        await stores()
        return nil
    }

    private static func checkCancellation() throws(KingfisherError) {
        if Task.isCancelled { throw .requestError(reason: .asyncTaskContextCancelled) }
    }

    /// A retrieval's timings as it goes, and the answer it ends with.
    private struct Progress {
        let request: RetrievalRequest
        let started = ContinuousClock.now
        var timings = RetrievalTimings()
        var networkMetrics: NetworkMetrics?

        init(request: RetrievalRequest) {
            self.request = request
        }

        mutating func lookupEnded() {
            timings.lookup = started.duration(to: .now)
        }

        mutating func response(_ fetched: Fetched) -> RetrievalResponse {
            timings.fetch = fetched.fetch
            timings.processing = fetched.processing
            networkMetrics = fetched.metrics
            var answer = response(image: fetched.image, original: fetched.data, answeredBy: .source)
            answer.originalMayBeStored = fetched.mayBeStored
            return answer
        }

        mutating func response(image: KFCrossPlatformImage, original: Data?, answeredBy: RetrievalAnswerer) -> RetrievalResponse {
            timings.total = started.duration(to: .now)
            return RetrievalResponse(
                image: image, originalData: original, answeredBy: answeredBy, timings: timings, networkMetrics: networkMetrics,
                serializer: request.serializer)
        }
    }
}
