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
    let resultMemory: MemoryStorage.Backend<ServedImage>
    let resultDisk: DiskStorage.Backend<ServedImage>
    let slots: WorkSlots
    /// Decoded pixels of the requests in processing, together.
    let pixelMemory: PixelMemoryBudget
    /// Told each change of the slots (requests waiting, slots busy): tests wait for it.
    let slotsObserver: Locked<(@Sendable (_ waiting: Int, _ busy: Int) -> Void)?>
    /// Results shared with the other nodes through Redis (`--redis`), and made by one of them.
    let cluster: RedisSingleFlight<ServedImage>?
    /// Originals shared with the other nodes, fetched by one of them.
    private let redisOriginals: RedisTier?
    private let redis: RedisClient?
    private let flights = SingleFlight<String, (ServedImage, ServiceMetrics.ResultLevel)>()
    private let parsedRequests = ParsedRequests()
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
    }

    init(configuration: ImageServerConfiguration, metrics: ServiceMetrics, logger: Logger) throws {
        try configuration.validate()
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        signers = configuration.keys.filter { !$0.isEmpty }.map(URLSigner.init(key:))
        do {
            policy = SourcePolicy(
                allowedPrefixes: try configuration.allowedSources.map(SourcePrefix.init),
                allowsPrivateNetworks: configuration.allowPrivateNetworks,
                trustedPrivatePrefixes: try configuration.trustedPrivateSources.map(SourcePrefix.init))
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
            cluster = RedisSingleFlight(storage: storage("result"), leaseDuration: lease, maxWait: maxWait)
        } else {
            redis = nil
            redisOriginals = nil
            cluster = nil
        }
        pipeline = RetrievalPipeline(
            processedTiers: [processedInMemory], originalTiers: [originalsOnDisk] + (redisOriginals.map { [$0] } ?? []),
            downloader: downloader)
        let slotsObserver = Locked<(@Sendable (_ waiting: Int, _ busy: Int) -> Void)?>(nil)
        self.slotsObserver = slotsObserver
        pixelMemory = PixelMemoryBudget(limit: configuration.pixelMemoryBytes)
        slots = WorkSlots(slots: configuration.processingSlots, lineLimit: configuration.queueLimit) { waiting, busy in
            metrics.queueDepth.set(Int64(waiting))
            metrics.busySlots.set(Int64(busy))
            slotsObserver.withLock { $0 }?(waiting, busy)
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
            grammar: .standard, name: configuration.name, allowsUnsigned: configuration.allowUnsigned,
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
        let choice = FormatChoice.resolve(extensionFormat: request.format, accept: accept, negotiable: negotiable)
        let key = request.keyStem + choice.keyComponent
        let varies = choice.variesWithAccept && !negotiable.isEmpty
        if let cached = resultMemory.value(forKey: key) {
            metrics.recordResult(from: .memory)
            return Answer(image: cached, variesWithAccept: varies, level: .memory, expires: request.expires)
        }
        do {
            let (found, joined) = try await flights.value(for: key) { [self] in
                try await produce(key: key, source: source, processor: processor, choice: choice)
            }
            let level = joined ? ServiceMetrics.ResultLevel.shared : found.1
            metrics.recordResult(from: level)
            return Answer(image: found.0, variesWithAccept: varies, level: level, expires: request.expires)
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
        let processor: ImageProcessorChain
        do {
            processor =
                try request.processing.map {
                    try ImageProcessorSpec.processor(from: $0, maxStepCount: configuration.maxProcessingSteps)
                } ?? ImageProcessorChain([])
        } catch {
            throw ServiceError(.badRequest, "\(error)")
        }
        do {
            try policy.checkPrefix(of: request.source)
        } catch {
            throw ServiceError(.forbidden, "refused to fetch: \(error.description)")
        }
        return ParsedRequest(
            source: request.source, processor: processor, format: request.format, expires: request.expires,
            keyStem: "\(request.source.absoluteString) \(processor.identifier) q\(configuration.quality) ")
    }

    private func checkSignature(of target: ImageURLPath) throws(ServiceError) {
        if target.signature == "unsafe" {
            guard configuration.allowUnsigned else {
                throw ServiceError(.forbidden, "unsigned URLs are not accepted: sign the path with the service's key")
            }
            return
        }
        guard signers.contains(where: { $0.isValid(signature: target.signature, forPath: target.signedPart) }) else {
            throw ServiceError(.forbidden, "the signature does not match the path with any of the service's keys")
        }
    }

    /// Finds or makes the encoded result for `key`: run once per key at a time.
    private func produce(
        key: String, source: URL, processor: ImageProcessorChain,
        choice: FormatChoice
    ) async throws -> (ServedImage, ServiceMetrics.ResultLevel) {
        if let stored = try? resultDisk.value(forKey: key) {
            resultMemory.store(value: stored, forKey: key)
            return (stored, .disk)
        }
        let made: (ServedImage, ServiceMetrics.ResultLevel)
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
                            source: source, processor: processor, choice: choice, slot: slot, pixelMemory: account)
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
            } else {
                made = try await makeHere()
            }
        } catch is WorkSlots.Full {
            metrics.recordRejection()
            throw ServiceError(
                .serviceUnavailable, "the service is busy: \(slots.lineLimit) requests are waiting already",
                retryAfter: configuration.retryAfter)
        }
        resultMemory.store(value: made.0, forKey: key)
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
        source: URL, processor: ImageProcessorChain,
        choice: FormatChoice, slot: RequestSlot, pixelMemory account: PixelMemoryBudget.Account
    ) async throws -> (ServedImage, ServiceMetrics.ResultLevel) {
        do {
            try await policy.checkAddress(of: source)
        } catch {
            throw error.unresolvable
                ? ServiceError(.badGateway, error.description)
                : ServiceError(.forbidden, "refused to fetch: \(error.description)")
        }
        metrics.recordProcessingRun()
        let request = RetrievalRequest(
            source: .network(KF.ImageResource(downloadURL: source)), processor: processor,
            limits: RetrievalLimits(
                maxPixelCount: configuration.maxSourcePixels, maxFrameCount: configuration.maxSourceFrames,
                maxResultPixelCount: configuration.maxResultPixels, pixelMemory: account),
            expiration: .days(configuration.diskCacheDays), redirectHandler: PolicyRedirects(policy: policy, source: source),
            processingGate: slot)
        let result: RetrievalResponse
        do {
            result = try await pipeline.retrieve(request)
        } catch {
            // Turned away by the slots (a full line), or cancelled: not the source's failure.
            if let refusal = slot.refusal { throw refusal }
            try Task.checkCancellation()
            // The egress check refused where a hop's name led this time (DNS rebinding), or
            // could not reach it: its reason, not the tunnel's.
            if let failure = error.downloadFailure, case .proxyRefusedTunnel = failure.reason,
                let refusal = egress?.refusal(for: failure.url)
            {
                throw refusal.status == 403
                    ? ServiceError(.forbidden, "refused to fetch: \(refusal.reason)")
                    : ServiceError(.badGateway, "fetching \(failure.url.absoluteString.prefix(300)): \(refusal.reason)")
            }
            throw ServiceError.retrieving(source, failedWith: error)
        }
        // A processed image from memory still needs a slot for its encoding.
        try await slot.hold()
        let image = result.image
        let format = try choice.outputFormat(
            width: image.pixelWidth, height: image.pixelHeight, sourceFormat: image.format, hasAlpha: image.hasAlpha)
        let served: ServedImage
        let quality = CGFloat(configuration.quality) / 100
        do {
            // Encoding (AVIF especially) is long CPU work: on the cooperative pool it would hold
            // a thread that cached answers need.
            // Interruptible: an image's frames may be made as they are encoded (a resize done on
            // demand), and a cancelled request must not keep the slot's CPU for them.
            guard
                let encoded = try await Self.encodingQueue.performInterruptibly({
                    ServedImage(data: try image.encoded(as: format.fileFormat, compressionQuality: quality), format: format)
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
