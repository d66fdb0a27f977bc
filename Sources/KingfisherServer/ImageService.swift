// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherRedis
import Logging
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The work behind an image URL: checks, caches, coalescing, slots, and the library's
/// retrieval pipeline for the processed image.
///
/// Levels, fastest first: encoded results in memory, encoded results on disk (both the
/// library's storage backends, keyed by source, processing and format), then the pipeline: the
/// processed image in memory (another format is only an encoding), the original on disk or in
/// Redis (processed again from its bytes, decoded at the reduced scale the processing needs),
/// the source. Results are encoded last.
final class ImageService: Sendable {
    let configuration: ImageServerConfiguration
    let metrics: ServiceMetrics
    /// One per key, newest first: a path signed with any of them is accepted.
    let signers: [URLSigner]
    let policy: SourcePolicy
    let downloader: ImageDownloader
    /// The proxy every fetch goes through to connect only to the addresses it checked; `nil`
    /// when private networks are allowed or the environment names a proxy of its own.
    let egress: EgressProxy?
    /// Processed images in memory, originals on disk (and in Redis), the fetch, the processing.
    let pipeline: RetrievalPipeline
    /// The same originals and fetch without the processed images: every answer has the
    /// original's bytes, which `/info` and `keep(exif)` read.
    let originalsPipeline: RetrievalPipeline
    /// Each network source's validators and freshness, and the version they name.
    let freshness: SourceFreshness
    let resultMemory: MemoryStorage.Backend<ServedImage>
    let resultDisk: DiskStorage.Backend<ServedImage>
    /// Removes a source's original and results, here and on every node.
    let purger: SourcePurger
    let slots: WorkSlots
    /// Decoded pixels of the requests in processing, together.
    let pixelMemory: PixelMemoryBudget
    /// Told each change of the slots (requests waiting, slots busy): tests wait for it.
    let slotsObserver: CallbackSlot<(waiting: Int, busy: Int)>
    /// Results shared with the other nodes through Redis (`--redis`), and made by one of them.
    let cluster: RedisSingleFlight<ServedImage>?
    /// Originals shared with the other nodes, fetched by one of them.
    private let redisOriginals: RedisTier?
    private let redis: RedisClient?
    private let flights = SingleFlight<String, (ServedImage, ServiceMetrics.ResultLevel)>()
    private let parsedRequests = ParsedRequests()
    /// The processing grammar, with the configuration's watermarks and presets.
    let grammar: ProcessorGrammar
    /// The formats `Accept` may choose, in the configuration's order, that this build can write.
    let negotiable: [OutputFormat]
    private let downloadEvents: DownloadEvents
    private let logger: Logger
    /// Results that cannot be kept on disk (full, read-only) warn once a minute, not per request.
    private let diskWarnings = WarningThrottle()

    /// What an image request was answered with.
    struct Answer {
        var image: ServedImage
        /// Whether another `Accept` could have got another format (`Vary: Accept`).
        var variesWithAccept: Bool
        var level: ServiceMetrics.ResultLevel
        /// When the URL stops being served, if ever: caches must not keep the answer longer.
        var expires: Date?
        /// The bytes the processing allowed (`maxbytes(N)`) when even its lowest quality takes
        /// more, which the answer says in a header.
        var exceededMaxBytes: Int?
    }

    init(configuration: ImageServerConfiguration, metrics: ServiceMetrics, logger: Logger) throws {
        try configuration.validate()
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        signers = configuration.keys.filter { !$0.isEmpty }.map(URLSigner.init(key:))
        grammar = try configuration.grammar()
        let localRoot = try configuration.localRoot.map(LocalRoot.init)
        do {
            policy = SourcePolicy(
                allowedPrefixes: try configuration.allowedSources.map(SourcePrefix.init),
                allowsPrivateNetworks: configuration.allowPrivateNetworks,
                trustedPrivatePrefixes: try configuration.trustedPrivateSources.map(SourcePrefix.init), localRoot: localRoot)
        } catch {
            throw ConfigurationError(description: error.description)
        }
        let directory = configuration.directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let expiration = StorageExpiration.days(configuration.diskCacheDays)

        (egress, downloader) = try Self.egressAndDownloader(configuration: configuration, policy: policy, logger: logger)
        downloader.downloadTimeout = configuration.fetchTimeout
        downloader.maxDownloadDuration = configuration.maxFetchDuration
        downloader.maxConcurrentDownloads = configuration.maxConcurrentFetches
        downloader.redirectLimit = configuration.maxRedirects
        downloader.maxResponseDataSize = configuration.maxSourceBytes
        downloadEvents = DownloadEvents(metrics: metrics)
        downloader.delegate = downloadEvents

        func diskStorage<T: DataTransformable>(_ kind: String) throws(ConfigurationError) -> DiskStorage.Backend<T> {
            var config = DiskStorage.Config(
                name: "\(configuration.name)-\(kind)", sizeLimit: UInt(configuration.diskCacheBytes),
                directory: directory, cachePathBlock: ImageCache.defaultDiskCachePathClosure)
            config.expiration = expiration
            do {
                return try DiskStorage.Backend(config: config)
            } catch {
                throw ConfigurationError(description: "the cache directory cannot be used: \(error)")
            }
        }
        resultDisk = try diskStorage("results")
        // Originals live on disk only; processed images in memory only, so their memory is what
        // the setting says.
        let originalsOnDisk: DiskStorage.Backend<Data> = try diskStorage("originals")
        // Each write holds the size limit from then on; what an earlier run left past a lower
        // limit goes now, not at the first write or the hourly cleaning.
        let resultDisk = self.resultDisk
        DispatchQueue.global(qos: .utility).async {
            _ = try? resultDisk.removeSizeExceededValues()
            _ = try? originalsOnDisk.removeSizeExceededValues()
        }
        let processedInMemory = MemoryStorage.Backend<KFCrossPlatformImage>(
            config: MemoryStorage.Config(totalCostLimit: configuration.processedMemoryBytes))
        var memoryConfig = MemoryStorage.Config(totalCostLimit: configuration.memoryCacheBytes)
        memoryConfig.expiration = .never
        resultMemory = MemoryStorage.Backend(config: memoryConfig)
        var sharedSources: RedisStorage.Backend<Data>?
        var sharedPurges: SourcePurger.Shared?
        if let redis = configuration.redis {
            let client = RedisClient(configuration: try configuration.redisClientConfiguration(url: redis), logger: logger)
            self.redis = client
            func storage<T>(_ kind: String) -> RedisStorage.Backend<T> {
                var config = RedisStorage.Config(client: client, prefix: configuration.redisPrefix + kind + ":")
                config.expiration = expiration
                return RedisStorage.Backend(config: config)
            }
            let lease = Duration.milliseconds(Int64(configuration.leaseSeconds * 1000))
            let maxWait = Duration.milliseconds(Int64(configuration.maxFetchDuration * 1000) * 2)
            // Originals too, fetched under their own leases: another processing of a source
            // another node fetches, or fetched, needs no fetch here.
            redisOriginals = RedisTier(storage: storage("original"), leaseDuration: lease, maxWait: maxWait)
            sharedSources = storage("source")
            let cluster = RedisSingleFlight<ServedImage>(storage: storage("result"), leaseDuration: lease, maxWait: maxWait)
            self.cluster = cluster
            sharedPurges = SourcePurger.Shared(
                results: RedisKeySet(client: client, prefix: configuration.redisPrefix + "made:"),
                broadcast: RedisBroadcast(client: client, channel: configuration.redisPrefix + "purges"), resultStorage: cluster.storage)
        } else {
            redis = nil
            redisOriginals = nil
            cluster = nil
        }
        freshness = SourceFreshness(
            bounds: configuration.minSourceTTL...configuration.maxSourceTTL, disk: originalsOnDisk,
            shared: sharedSources, isOutage: Self.isOutage, revalidated: { metrics.recordRevalidation($0) })
        let originalTiers: [any CacheTier<Data>] = [originalsOnDisk] + (redisOriginals.map { [$0] } ?? [])
        pipeline = RetrievalPipeline(processedTiers: [processedInMemory], originalTiers: originalTiers, downloader: downloader)
        let purger = SourcePurger(
            freshness: freshness, index: ResultIndex(disk: originalsOnDisk), resultMemory: resultMemory, resultDisk: resultDisk,
            processedMemory: processedInMemory, originalsOnDisk: originalsOnDisk, originalTiers: originalTiers, shared: sharedPurges,
            metrics: metrics)
        self.purger = purger
        purger.startListening()
        originalsPipeline = RetrievalPipeline(processedTiers: [], originalTiers: originalTiers, downloader: downloader)
        let slotsObserver = CallbackSlot<(waiting: Int, busy: Int)>()
        self.slotsObserver = slotsObserver
        pixelMemory = PixelMemoryBudget(limit: configuration.pixelMemoryBytes)
        slots = WorkSlots(slots: configuration.processingSlots, lineLimit: configuration.queueLimit) { waiting, busy in
            metrics.queueDepth.set(Int64(waiting))
            metrics.busySlots.set(Int64(busy))
            slotsObserver.call((waiting, busy))
        }
        // Only formats this build can write: libavif may come without an AV1 encoder.
        negotiable = configuration.negotiatedFormats.compactMap { OutputFormat(fileExtension: $0) }.filter(\.canEncode)
        for format in configuration.negotiatedFormats.compactMap({ OutputFormat(fileExtension: $0) }) where !format.canEncode {
            logger.warning("\(format.rawValue) is not offered to Accept: this build cannot encode it")
        }
    }

    /// What the playground page reads: the processing grammar, the formats, the signing mode.
    var playgroundCatalogue: PlaygroundCatalogue {
        PlaygroundCatalogue(
            grammar: grammar, name: configuration.name, allowsUnsigned: configuration.allowUnsigned,
            formats: OutputFormat.allCases.filter(\.canEncode), negotiated: negotiable)
    }

    /// The downloader, through an ``EgressProxy`` when addresses are checked and the
    /// environment names no proxy (which would then do the resolving and connecting itself).
    private static func egressAndDownloader(
        configuration: ImageServerConfiguration, policy: SourcePolicy, logger: Logger
    ) throws -> (EgressProxy?, ImageDownloader) {
        guard !configuration.allowPrivateNetworks else { return (nil, ImageDownloader(name: configuration.name)) }
        if let variable = ProxyRoutes.proxyVariable(in: ProcessInfo.processInfo.environment) {
            logger.warning(
                "sources are fetched through the proxy \(variable) names: it resolves their hosts, so it must refuse private addresses itself"
            )
            return (nil, ImageDownloader(name: configuration.name))
        }
        let trusted = policy.trustedPrivatePrefixes
        let egress: EgressProxy
        do {
            egress = try EgressProxy { host, port in trusted.contains { $0.host == host && $0.port == port } }
        } catch {
            throw ConfigurationError(description: "cannot start the egress check on 127.0.0.1: \(error)")
        }
        var transport = AsyncHTTPClientTransport.Configuration(proxy: .server(egress.url))
        transport.tunnelsPlainHTTP = true
        transport.retriesFailedConnections = false
        return (egress, ImageDownloader(name: configuration.name, transport: try AsyncHTTPClientTransport(configuration: transport)))
    }

    /// Closes the Redis connections and subscriptions, if any; for after the last request.
    func shutdown() {
        egress?.shutdown()
        cluster?.shutdown()
        redisOriginals?.shutdown()
        purger.shutdown()
        redis?.shutdown()
    }

    /// The answer for an image URL's path, or the error to answer with.
    func image(forPath path: Substring, accept: String?) async throws(ServiceError) -> Answer {
        let target: ImageURLPath
        do {
            target = try ImageURLPath(path: path)
        } catch {
            throw ServiceError(.notFound, "\(error.description)")
        }
        try checkSignature(of: target)
        let request = try parsedRequests.request(for: target.signedPart) { () throws(ServiceError) in try parse(target) }
        if let expires = request.expires, let refusal = URLExpiry.refusal(expires: expires, now: Date()) {
            throw ServiceError(.forbidden, refusal)
        }
        let source = request.source
        let processor = request.processor
        let controls = request.controls
        let choice = FormatChoice.resolve(extensionFormat: request.format, accept: accept, negotiable: negotiable)
        // Results are kept per version of the source: a changed source has none of the old.
        let version = try await sourceVersion(of: source)
        let key = request.keyStem + choice.keyComponent + (version.map { " v\($0)" } ?? "")
        let varies = choice.variesWithAccept && !negotiable.isEmpty
        func answer(_ image: ServedImage, _ level: ServiceMetrics.ResultLevel) -> Answer {
            let exceeded = controls.maxBytes.flatMap { image.body.readableBytes > $0 ? $0 : nil }
            return Answer(image: image, variesWithAccept: varies, level: level, expires: request.expires, exceededMaxBytes: exceeded)
        }
        if let cached = resultMemory.value(forKey: key) {
            metrics.recordResult(from: .memory)
            return answer(cached, .memory)
        }
        do {
            let (found, joined) = try await flights.value(for: key) { [self] in
                try await produce(key: key, source: source, version: version, processor: processor, controls: controls, choice: choice)
            }
            let level = joined ? ServiceMetrics.ResultLevel.shared : found.1
            metrics.recordResult(from: level)
            return answer(found.0, level)
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            // The client went away and its work was cancelled: nobody reads this answer, but the
            // metrics and the log must not call it a failure of the service.
            throw ServiceError(.clientClosedRequest, "the client went away before the answer")
        } catch {
            throw ServiceError(.internalServerError, "\(error)")
        }
    }

    /// Decodes what a signed path asks for and checks it: the processing grammar and limits
    /// (`400`) and the allowed source prefixes (`403`).
    private func parse(_ target: ImageURLPath) throws(ServiceError) -> ParsedRequest {
        let request: ImageURLPath.Decoded
        do {
            request = try target.decoded()
        } catch {
            throw ServiceError(.badRequest, error.description)
        }
        if let format = request.format, !format.canEncode {
            throw ServiceError(.badRequest, "this build cannot encode \(format.rawValue): use another extension")
        }
        let chain: ImageProcessorChain
        do {
            chain =
                try request.processing.map {
                    try grammar.processor(from: $0, maxStepCount: configuration.maxProcessingSteps)
                } ?? ImageProcessorChain([])
        } catch {
            throw ServiceError(.badRequest, "\(error)")
        }
        if configuration.presetsOnly, let processing = request.processing,
            let other = ProcessorGrammar.writtenSteps(of: processing).first(where: { $0.name != ProcessorStep.presetName })
        {
            throw ServiceError(.forbidden, "only presets are served here: '\(other.text.prefix(100))' is not preset(NAME)")
        }
        do {
            try policy.checkPrefix(of: request.source)
        } catch {
            throw ServiceError(.forbidden, "refused to fetch: \(error.description)")
        }
        let processor = chain.withoutOutputControls
        let controls = chain.outputControls
        let qualities = configuration.formatQuality.sorted { $0.key < $1.key }.map { "\($0.key)\($0.value)" }.joined(separator: ",")
        return ParsedRequest(
            source: request.source, processor: processor, controls: controls, format: request.format, expires: request.expires,
            keyStem:
                "\(request.source.absoluteString) \(processor.identifier) q\(configuration.quality)\(qualities) \(controls.keyDescription) "
        )
    }

    func checkSignature(of target: ImageURLPath, covering prefix: String = "") throws(ServiceError) {
        if target.signature == "unsafe" {
            guard configuration.allowUnsigned else {
                throw ServiceError(.forbidden, "unsigned URLs are not accepted: sign the path with the service's key")
            }
            return
        }
        guard signers.contains(where: { $0.isValid(signature: target.signature, forPath: prefix + target.signedPart) }) else {
            throw ServiceError(.forbidden, "the signature does not match the path with any of the service's keys")
        }
    }

    /// Finds or makes the encoded result for `key`: run once per key at a time.
    private func produce(
        key: String, source: URL, version: String?, processor: ImageProcessorChain, controls: OutputControls,
        choice: FormatChoice
    ) async throws -> (ServedImage, ServiceMetrics.ResultLevel) {
        if let stored = try? resultDisk.value(forKey: key) {
            resultMemory.store(value: stored, forKey: key)
            return (stored, .disk)
        }
        let made: (ServedImage, ServiceMetrics.ResultLevel)
        var storedInRedis = false
        do {
            let makeHere = { [self] in
                let slot = RequestSlot(slots)
                let account = pixelMemory.makeAccount()
                let work = Task { [self] in
                    // The slot and the pixels are held until the work ends, even past an answer
                    // at the deadline.
                    defer {
                        account.close()
                        slot.release()
                    }
                    do {
                        return try await retrieveAndEncode(
                            source: source, version: version, processor: processor, controls: controls, choice: choice, slot: slot,
                            pixelMemory: account)
                    } catch {
                        // However the refusal surfaced (a decoder's, a processor's, an encoder's error).
                        if let refusal = account.refusal { throw pixelMemoryError(refusal, source: source) }
                        throw error
                    }
                }
                return try await withinProcessingDeadline(of: slot, source: source, work)
            }
            if let cluster {
                var level = ServiceMetrics.ResultLevel.redis
                let (image, outcome) = try await cluster.value(forKey: resultDisk.cacheFileName(forKey: key)) {
                    let here = try await makeHere()
                    level = here.1
                    return here.0
                }
                made = (image, outcome == .made ? level : .redis)
                storedInRedis = outcome == .made
            } else {
                made = try await makeHere()
            }
        } catch is WorkSlots.Full {
            throw lineFull()
        }
        resultMemory.store(value: made.0, forKey: key)
        // A keep(…) request went through the pipeline without the processed tier.
        let processedKey =
            controls.keepsMetadata
            ? nil
            : (try? retrievalSource(source, version: version)).map {
                RetrievalRequest(source: $0, processor: processor).processedKey
            }
        await purger.noteMade(
            key, processedKey: processedKey, of: source, inRedis: storedInRedis, expiration: .days(configuration.diskCacheDays))
        do {
            try resultDisk.store(value: made.0, forKey: key)
        } catch {
            // Served from memory all the same; the disk cache may be full or unwritable.
            if let leftOut = diskWarnings.admit() {
                let since = leftOut > 0 ? " (and \(leftOut) more results since the last warning)" : ""
                logger.warning(
                    "cannot keep the result of \(ServiceError.printable(String(source.absoluteString.prefix(300)))) on disk: \(error)\(since)"
                )
            }
        }
        return made
    }

    /// The result `work` makes, or `504` once it has held its processing slot for the
    /// processing timeout: the answer does not wait for the work, which is cancelled (its pixel
    /// loops stop; a C encoder runs to its end) and gives its slot back when it ends.
    private func withinProcessingDeadline<T: Sendable>(
        of slot: RequestSlot, source: URL, _ work: Task<T, any Error>
    ) async throws -> T {
        let timeout = configuration.processingTimeout
        let answered = Locked(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                @Sendable func answer(_ result: Result<T, any Error>) {
                    guard
                        answered.withLock({ answered in
                            defer { answered = true }
                            return !answered
                        })
                    else { return }
                    continuation.resume(with: result)
                }
                let deadline = Task {
                    await slot.waitUntilTaken()
                    try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                    guard !Task.isCancelled else { return }
                    work.cancel()
                    answer(
                        .failure(
                            ServiceError(
                                .gatewayTimeout,
                                "processing \(source.absoluteString.prefix(300)) ran past the \(String(format: "%g", timeout)) s processing timeout"
                            )))
                }
                Task {
                    let result = await work.result
                    deadline.cancel()
                    answer(result)
                }
            }
        } onCancel: {
            work.cancel()
        }
    }

    /// `503` for a request turned away because the line for the slots is full, counted.
    func lineFull() -> ServiceError {
        metrics.recordRejection()
        return ServiceError(
            .serviceUnavailable, "the service is busy: \(slots.lineLimit) requests are waiting already",
            retryAfter: configuration.retryAfter)
    }

    /// `503` (`413` when the request alone needs more than the budget) for a request whose
    /// pixels did not fit the pixel memory budget.
    private func pixelMemoryError(_ refusal: PixelMemoryBudget.Refusal, source: URL) -> ServiceError {
        metrics.recordPixelMemoryRefusal()
        let url = source.absoluteString.prefix(300)
        if refusal.exceedsWholeBudget {
            return ServiceError(.contentTooLarge, "processing \(url) was refused: \(refusal)")
        }
        return ServiceError(.serviceUnavailable, "processing \(url) must wait: \(refusal)", retryAfter: configuration.retryAfter)
    }

    private func retrieveAndEncode(
        source: URL, version: String?, processor: ImageProcessorChain, controls: OutputControls,
        choice: FormatChoice, slot: RequestSlot, pixelMemory account: PixelMemoryBudget.Account
    ) async throws -> (ServedImage, ServiceMetrics.ResultLevel) {
        // An output keeping the source's EXIF needs the source's bytes, which a processed image
        // from memory comes without: the original tiers or the source answer instead.
        let result = try await retrieve(
            source: source, version: version, processor: processor, slot: slot, pixelMemory: account,
            from: controls.keepsMetadata ? originalsPipeline : pipeline)
        // A processed image from memory still needs a slot for its encoding.
        try await slot.hold()
        let image = result.image
        let format = try choice.outputFormat(
            width: image.pixelWidth, height: image.pixelHeight, sourceFormat: image.format, hasAlpha: image.hasAlpha)
        let served: ServedImage
        let options = controls.encodingOptions(
            defaultQuality: configuration.quality(for: format), exif: controls.keptEXIF(of: result.originalData))
        do {
            // Encoding (AVIF especially) is long CPU work: on the cooperative pool it would hold
            // a thread that cached answers need.
            // Interruptible: an image's frames may be made as they are encoded (a resize done on
            // demand), and a cancelled request must not keep the slot's CPU for them.
            guard
                let encoded = try await Self.encodingQueue.performInterruptibly({
                    guard let maxBytes = controls.maxBytes else {
                        return ServedImage(data: try image.encoded(as: format.fileFormat, options: options), format: format)
                    }
                    return ServedImage(
                        data: try image.encoded(as: format.fileFormat, options: options, maxBytes: maxBytes).data, format: format)
                })
            else { throw CancellationError() }
            served = encoded
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ServiceError(.internalServerError, "encoding \(source.absoluteString.prefix(300)) as \(format.rawValue) failed: \(error)")
        }
        let level: ServiceMetrics.ResultLevel =
            switch result.answeredBy {
            case .processedTier: .processed
            case .originalTier: .original
            case .source: .source
            }
        return (served, level)
    }

    /// The retrieval of `source` through `pipeline` with `processor`, once its address is
    /// allowed, within the service's limits, slot and redirect policy; a failure as the answer it
    /// is.
    func retrieve(
        source: URL, version: String?, processor: any ImageProcessor, slot: RequestSlot,
        pixelMemory account: PixelMemoryBudget.Account, from pipeline: RetrievalPipeline
    ) async throws -> RetrievalResponse {
        try await checkAddress(of: source)
        metrics.recordProcessingRun()
        var request = RetrievalRequest(
            source: try retrievalSource(source, version: version), processor: processor,
            limits: RetrievalLimits(
                maxPixelCount: configuration.maxSourcePixels, maxFrameCount: configuration.maxSourceFrames,
                maxResultPixelCount: configuration.maxResultPixels, pixelMemory: account),
            expiration: .days(configuration.diskCacheDays), redirectHandler: PolicyRedirects(policy: policy, source: source),
            processingGate: slot)
        if source.scheme != LocalRoot.scheme {
            // A fetch teaches the source's state its response's validators and freshness.
            let freshness = self.freshness
            request.caller = RetrievalCaller(mayStoreFetched: { loaded, requestTime in
                if let response = loaded.response {
                    freshness.learn(response, requestTime: requestTime, of: source, version: version ?? "")
                }
                return true
            })
        }
        do {
            return try await pipeline.retrieve(request)
        } catch {
            // Turned away by the slots (a full line): not the source's failure.
            if let refusal = slot.refusal { throw refusal }
            throw fetchError(error, source: source)
        }
    }

    /// Whether `source`'s address may be fetched: `403` when the policy refuses it, `502` when
    /// its name does not resolve.
    func checkAddress(of source: URL) async throws(ServiceError) {
        do {
            try await policy.checkAddress(of: source)
        } catch {
            throw error.unresolvable
                ? ServiceError(.badGateway, error.description)
                : ServiceError(.forbidden, "refused to fetch: \(error.description)")
        }
    }

    /// The answer for a failed fetch or retrieval of `source`.
    func fetchError(_ error: any Error, source: URL) -> ServiceError {
        if let error = error as? ServiceError { return error }
        // Cancelled: the client's doing, not the source's failure.
        if error is CancellationError || Task.isCancelled {
            return ServiceError(.clientClosedRequest, "the client went away before the answer")
        }
        guard let error = error as? KingfisherError else { return ServiceError(.internalServerError, "\(error)") }
        // The egress check refused where a hop's name led this time (DNS rebinding), or could
        // not reach it: its reason, not the tunnel's.
        if let failure = error.downloadFailure, case .proxyRefusedTunnel = failure.reason, let refusal = egress?.refusal(for: failure.url) {
            return refusal.status == 403
                ? ServiceError(.forbidden, "refused to fetch: \(refusal.reason)")
                : ServiceError(.badGateway, "fetching \(failure.url.absoluteString.prefix(300)): \(refusal.reason)")
        }
        return ServiceError.retrieving(source, failedWith: error)
    }

    /// What the pipeline retrieves for `source`: a download, or a file under the local root
    /// (resolved again now: what it names may have changed since the request was parsed).
    private func retrievalSource(_ source: URL, version: String?) throws(ServiceError) -> Source {
        guard source.scheme == LocalRoot.scheme else {
            return .network(KF.ImageResource(downloadURL: source, cacheKey: Self.originalKey(of: source, version: version)))
        }
        guard let localRoot = policy.localRoot else { throw ServiceError(.forbidden, "local sources are not served here") }
        let file: URL
        do {
            file = try localRoot.file(for: source)
        } catch {
            throw ServiceError(.forbidden, "refused to read: \(error.description)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        guard size <= configuration.maxSourceBytes else {
            throw ServiceError(
                .contentTooLarge, "the source \(source.absoluteString.prefix(200)) is \(size) bytes, over \(configuration.maxSourceBytes)")
        }
        return .provider(LocalFileImageDataProvider(fileURL: file, cacheKey: source.absoluteString))
    }

    private static let encodingQueue = DispatchQueue(label: "com.kingfisher-linux.serve.encoding", attributes: .concurrent)
}

/// Follows a source's redirect only to where the source policy allows: a refused one fails the
/// fetch with the policy's reason (`403`).
struct PolicyRedirects: ImageDownloadRedirectPolicy {
    let policy: SourcePolicy
    let source: URL

    func refusal(ofRedirectTo target: URL, from response: HTTPURLResponse) async -> String? {
        do throws(SourcePolicy.Refusal) {
            try await policy.checkRedirect(to: target, from: source)
            return nil
        } catch {
            return error.description
        }
    }
}
