// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import KingfisherServer
import Logging

/// `kf serve`: the image service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve processed images: GET /SIGNATURE/PROCESSING/SOURCE[.EXT], /healthz, /metrics and a playground at /.",
        discussion: """
            SOURCE is the source URL in base64url without padding; PROCESSING is a `kf process --processor` spec, \
            percent-encoded, or '-'; EXT (jpg, png, webp, gif, avif) picks the format, else Accept negotiates \
            (AVIF, then WebP) and the source's format is the fallback. SIGNATURE is base64url (no padding) of \
            HMAC-SHA256 with a key over the path after it, from its leading '/'; `kf url` prints signed paths. \
            A PROCESSING step expires(UNIX_SECONDS) makes the URL refused with 403 after that time (`kf url --expires`). \
            Settings come from --config (JSON, the names below in camelCase: maxSourceBytes, queueLimit, …; \
            "keys": [...] for --key), \
            then the flags. SIGTERM or SIGINT stops accepting, finishes requests in flight and exits 0.
            """
    )

    private static let defaults = ImageServerConfiguration()

    @Option(help: "A JSON file of settings; flags override it.")
    var config: String?
    @Option(help: "The address to listen on (default: \(defaults.host)).")
    var host: String?
    @Option(help: "The port to listen on; 0 picks a free one (default: \(defaults.port)).")
    var port: Int?
    @Option(
        name: .customLong("key"),
        help: """
            A signing key (or set KF_SERVE_KEY, which `ps` does not show). Repeatable: paths signed with any key are served, \
            so a new key can go first while URLs signed with an old one still work.
            """)
    var keys: [String] = []
    @Flag(help: "Accept `unsafe` in place of a signature.")
    var allowUnsigned = false
    @Flag(help: "Allow sources on loopback, private and link-local addresses.")
    var allowPrivateNetworks = false
    @Option(
        name: .customLong("allowed-source"), help: "Only fetch sources starting with this prefix (repeatable; default: any http(s) URL).")
    var allowedSources: [String] = []
    @Option(name: .customLong("trusted-private-source"), help: "Sources under this prefix may be on a private network (repeatable).")
    var trustedPrivateSources: [String] = []
    @Option(help: "The cache directory (default: $XDG_CACHE_HOME/kingfisher, else ~/.cache/kingfisher).")
    var directory: String?
    @Option(help: "The service's name: its caches' names and its Server header (default: \(defaults.name)).")
    var name: String?

    @Option(help: "Requests processed at once (default: the number of cores, \(defaults.processingSlots)).")
    var processingSlots: Int?
    @Option(help: "Requests that may wait for a slot before 503 (default: \(defaults.queueLimit)).")
    var queueLimit: Int?
    @Option(help: "Seconds in a 503's Retry-After (default: \(defaults.retryAfter)).")
    var retryAfter: Int?
    @Option(help: "Source downloads at once (default: \(defaults.maxConcurrentFetches)).")
    var maxConcurrentFetches: Int?
    @Option(help: "Seconds a source fetch may go without progress before 504 (default: \(Int(defaults.fetchTimeout))).")
    var fetchTimeout: Double?
    @Option(help: "Seconds a source fetch may take in all (default: \(Int(defaults.maxFetchDuration))).")
    var maxFetchDuration: Double?
    @Option(
        name: .customLong("min-source-ttl"),
        help: "Seconds a source is used at least before the origin is asked whether it changed (default: \(Int(defaults.minSourceTTL))).")
    var minSourceTTL: Double?
    @Option(
        name: .customLong("max-source-ttl"),
        help:
            "Seconds a source is used at most before the origin is asked whether it changed, whatever its Cache-Control says (default: \(Int(defaults.maxSourceTTL)))."
    )
    var maxSourceTTL: Double?
    @Option(help: "Redirects a source may take (default: \(defaults.maxRedirects)).")
    var maxRedirects: Int?
    @Option(help: "The largest source in bytes before 413 (default: \(defaults.maxSourceBytes)).")
    var maxSourceBytes: Int?
    @Option(help: "The most pixels of a source (each frame) before 413 (default: \(defaults.maxSourcePixels)).")
    var maxSourcePixels: Int?
    @Option(help: "The most pixels a processing step may make before 400 (default: \(defaults.maxResultPixels)).")
    var maxResultPixels: Int?
    @Option(
        help: """
            Bytes of decoded pixels all requests in processing may hold together; past it 503 (413 for one request \
            alone) (default: \(defaults.pixelMemoryBytes), 1 GiB).
            """)
    var pixelMemoryBytes: Int?
    @Option(help: "The most frames of an animated source (default: \(defaults.maxSourceFrames)).")
    var maxSourceFrames: Int?
    @Option(help: "The most steps in a processing (default: \(defaults.maxProcessingSteps)).")
    var maxProcessingSteps: Int?
    @Option(help: "Seconds a result may take once it has a processing slot, before 504 (default: \(Int(defaults.processingTimeout))).")
    var processingTimeout: Double?
    @Option(help: "JPEG, WebP and AVIF quality, 1-100 (default: \(defaults.quality)).")
    var quality: Int?
    @Option(
        help:
            "Formats Accept may pick, in order, comma-separated; '' for none (default: \(defaults.negotiatedFormats.joined(separator: ",")))."
    )
    var negotiate: String?
    @Option(help: "Cache-Control max-age of results, in seconds (default: \(defaults.maxAge)).")
    var maxAge: Int?
    @Option(help: "Bytes of encoded results kept in memory (default: \(defaults.memoryCacheBytes)).")
    var memoryCacheBytes: Int?
    @Option(help: "Bytes of processed images kept in memory (default: \(defaults.processedMemoryBytes)).")
    var processedMemoryBytes: Int?
    @Option(help: "Bytes of results, and of originals, kept on disk; 0: no limit (default: \(defaults.diskCacheBytes)).")
    var diskCacheBytes: Int?
    @Option(help: "Days results and originals stay on disk (default: \(defaults.diskCacheDays)).")
    var diskCacheDays: Int?
    @Option(
        help:
            "Seconds a client connection may idle or trickle its request before it is closed (default: \(Int(defaults.clientIdleTimeout)))."
    )
    var clientIdleTimeout: Double?
    @Option(
        help:
            "Client connections open at once; past it the longest-idle one is closed, or 503 if all are busy (default: \(defaults.maxConnections))."
    )
    var maxConnections: Int?
    @Option(
        help:
            "Bytes of a request body read and dropped before reading stops; it closes 2 s later (default: \(defaults.maxRequestBodyBytes))."
    )
    var maxRequestBodyBytes: Int?
    @Option(
        help:
            "A Redis server shared by several nodes, redis://HOST[:PORT]: results are kept there and each is made by one node (default: none)."
    )
    var redis: String?
    @Option(help: "The prefix of the service's Redis keys (default: \(defaults.redisPrefix)).")
    var redisPrefix: String?
    @Option(
        help:
            "Seconds a node's claim to make a result lives unrenewed, the longest a dead node delays others (default: \(Int(defaults.leaseSeconds)))."
    )
    var leaseSeconds: Double?

    @Option(name: .customLong("watermark"), help: "A watermark image for watermark(NAME), as NAME=PATH (repeatable).")
    var watermarks: [String] = []

    @Option(name: .customLong("preset"), help: "A named processing chain for preset(NAME), as NAME=SPEC (repeatable).")
    var presets: [String] = []

    @Flag(help: "Refuse (403) any processing other than preset(NAME) steps.")
    var presetsOnly = false

    @Flag(help: "Answer the EXIF position (GPS) of a source in /info.")
    var infoGPS = false

    @Option(help: "A directory whose files local:///PATH sources name (none may lead out of it).")
    var localRoot: String?

    @Option(help: "Quality by output format, as FORMAT=N,… (avif=60,webp=75,jpg=82), in place of --quality.")
    var formatQuality: String?

    func run() async throws {
        var settings = ImageServerConfiguration()
        if let config {
            do {
                settings = try ImageServerConfiguration.load(file: config)
            } catch {
                exitWithError("\(error)", status: ExitStatus.noInput)
            }
        }
        apply(to: &settings)
        do {
            try settings.validate()
        } catch {
            exitWithError("\(error)", status: 64)
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let logger = Logger(label: settings.name)
        let server: ImageServer
        do {
            let host = settings.host
            server = try ImageServer(configuration: settings, logger: logger) { port in
                FileHandle.standardOutput.write(Data("kf serve: listening on http://\(host):\(port)/\n".utf8))
            }
        } catch {
            exitWithError("\(error)", status: ExitStatus.cannotCreate)
        }
        do {
            try await server.runUntilSignalled(logger: logger)
        } catch let error as ConfigurationError {
            exitWithError("\(error)", status: ExitStatus.unavailable)
        } catch {
            exitWithError("the service stopped: \(error)", status: ExitStatus.unavailable)
        }
    }

    /// Puts the flags given over `settings`.
    private func apply(to settings: inout ImageServerConfiguration) {
        func set<T>(_ value: T?, _ path: WritableKeyPath<ImageServerConfiguration, T>) {
            if let value { settings[keyPath: path] = value }
        }
        set(host, \.host)
        set(port, \.port)
        if !keys.isEmpty {
            settings.keys = keys
        } else if let key = ProcessInfo.processInfo.environment["KF_SERVE_KEY"] {
            settings.key = key
        }
        if allowUnsigned { settings.allowUnsigned = true }
        if allowPrivateNetworks { settings.allowPrivateNetworks = true }
        if !allowedSources.isEmpty { settings.allowedSources = allowedSources }
        if !trustedPrivateSources.isEmpty { settings.trustedPrivateSources = trustedPrivateSources }
        set(directory, \.directory)
        set(name, \.name)
        set(processingSlots, \.processingSlots)
        set(queueLimit, \.queueLimit)
        set(retryAfter, \.retryAfter)
        set(maxConcurrentFetches, \.maxConcurrentFetches)
        set(fetchTimeout, \.fetchTimeout)
        set(maxFetchDuration, \.maxFetchDuration)
        set(minSourceTTL, \.minSourceTTL)
        set(maxSourceTTL, \.maxSourceTTL)
        set(maxRedirects, \.maxRedirects)
        set(maxSourceBytes, \.maxSourceBytes)
        set(maxSourcePixels, \.maxSourcePixels)
        set(maxResultPixels, \.maxResultPixels)
        set(pixelMemoryBytes, \.pixelMemoryBytes)
        set(maxSourceFrames, \.maxSourceFrames)
        set(maxProcessingSteps, \.maxProcessingSteps)
        set(processingTimeout, \.processingTimeout)
        set(quality, \.quality)
        set(negotiate.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }, \.negotiatedFormats)
        set(maxAge, \.maxAge)
        set(memoryCacheBytes, \.memoryCacheBytes)
        set(processedMemoryBytes, \.processedMemoryBytes)
        set(diskCacheBytes, \.diskCacheBytes)
        set(diskCacheDays, \.diskCacheDays)
        set(clientIdleTimeout, \.clientIdleTimeout)
        set(maxConnections, \.maxConnections)
        set(maxRequestBodyBytes, \.maxRequestBodyBytes)
        if let redis { settings.redis = redis }
        set(redisPrefix, \.redisPrefix)
        set(leaseSeconds, \.leaseSeconds)
        for (name, path) in watermarks.map(Self.namedValue) { settings.watermarks[name] = path }
        for (name, spec) in presets.map(Self.namedValue) { settings.presets[name] = spec }
        if presetsOnly { settings.presetsOnly = true }
        if infoGPS { settings.infoGPS = true }
        set(localRoot, \.localRoot)
        for pair in formatQuality.map({ $0.split(separator: ",").map(String.init) }) ?? [] {
            let (format, value) = Self.namedValue(pair)
            guard let quality = Int(value) else { exitWithError("--format-quality: '\(value)' is not a number", status: 64) }
            settings.formatQuality[format.lowercased()] = quality
        }
    }

    /// `NAME=VALUE` split at its first `=`; the process exits with 64 for anything else.
    static func namedValue(_ text: String) -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            exitWithError("'\(text)' is not NAME=VALUE", status: 64)
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}
