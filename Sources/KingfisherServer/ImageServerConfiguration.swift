// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher
import KingfisherRedis

/// Every setting of the image service, with its default. `kf serve` fills it from its flags and
/// an optional JSON file of the same names (flags win).
public struct ImageServerConfiguration: Sendable, Codable, Equatable {
    /// The address to listen on. Default `127.0.0.1`.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one. Default 8080.
    public var port = 8080
    /// The HMAC-SHA256 keys URLs may be signed with, newest first: a path signed with any of
    /// them is served, and `kf url` signs with the first. To rotate, put the new key first and
    /// drop the old one once its URLs are no longer published. Empty only with
    /// ``allowUnsigned``. Default empty. The config file takes `"keys": [...]`, or `"key"` for one.
    public var keys: [String] = []
    /// The first of ``keys`` (the one that signs), or `nil`; setting it replaces them all.
    public var key: String? {
        get { keys.first }
        set { keys = newValue.map { [$0] } ?? [] }
    }
    /// Whether `unsafe` is accepted in place of a signature. Default `false`.
    public var allowUnsigned = false
    /// Whether sources on loopback, private and link-local addresses may be fetched. Default `false`.
    public var allowPrivateNetworks = false
    /// Prefixes every source must start with (e.g. `https://images.example.com/`); empty: any
    /// http or https URL. Default empty.
    public var allowedSources: [String] = []
    /// Prefixes of sources that may be on private networks even without
    /// ``allowPrivateNetworks`` (an internal origin); redirects out of them are checked as usual.
    /// Default empty.
    public var trustedPrivateSources: [String] = []
    /// The directory of the disk caches; `nil`: the user's cache directory. Default `nil`.
    public var directory: String?
    /// The service's name: names its caches, and its `Server` header. Default `kf-serve`.
    public var name = "kf-serve"

    /// Requests processed at once; each holds its source's bytes and pixels while it works.
    /// Default: the number of cores.
    public var processingSlots = ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait for a slot; past that, `503` with `Retry-After`. Default 64.
    public var queueLimit = 64
    /// Seconds a `503` asks the client to wait (`Retry-After`). Default 1.
    public var retryAfter = 1
    /// Source downloads at once. Default 16.
    public var maxConcurrentFetches = 16
    /// Seconds a source fetch may go without progress. Default 10.
    public var fetchTimeout: TimeInterval = 10
    /// Seconds a source fetch may take in all, redirects included. Default 30.
    public var maxFetchDuration: TimeInterval = 30
    /// Seconds a source's state (its validators and freshness) is used at least without asking
    /// the origin, whatever its `Cache-Control` says (`no-cache` and `max-age=0` included): a
    /// floor that spares the origin. Default 60.
    public var minSourceTTL: TimeInterval = 60
    /// Seconds a source's state is used at most without asking the origin again (with
    /// `If-None-Match`/`If-Modified-Since`), however long its `Cache-Control` or `Expires`
    /// allows. Default 86 400 (a day).
    public var maxSourceTTL: TimeInterval = 86_400
    /// Redirects a source may take. Default 5.
    public var maxRedirects = 5
    /// The largest source in bytes; past it, `413`. Default 50 MiB.
    public var maxSourceBytes = 50 * 1024 * 1024
    /// The most pixels a source may have (each frame); past it, `413`. Default 50 000 000.
    public var maxSourcePixels = 50_000_000
    /// The most pixels a processing step may make (frames held at once counted); past it,
    /// `400`, before the step allocates anything. Default 50 000 000.
    public var maxResultPixels = 50_000_000
    /// Bytes of decoded pixels (4 a pixel) all requests being processed may hold together:
    /// each request's decoded source and processing steps are counted from the header and the
    /// steps' output sizes before anything is allocated. A request that would take the total
    /// past it gets `503` with `Retry-After` (`413` when it alone needs more). Default 1 GiB.
    public var pixelMemoryBytes = 1 << 30
    /// The most frames of an animated source. Default 1000.
    public var maxSourceFrames = 1000
    /// The most steps in a processing. Default 16.
    public var maxProcessingSteps = 16
    /// Seconds a result may take once it has its processing slot (decoding, processing,
    /// encoding); past it, `504`, and its work is stopped and its slot given back. Fetching
    /// has its own limits. Default 10.
    public var processingTimeout: TimeInterval = 10
    /// JPEG, WebP and AVIF quality, 1…100, where ``formatQuality`` names none and the
    /// processing asks none (`quality(N)`). Default 80.
    public var quality = 80
    /// Quality by output format's extension (`avif`, `webp`, `jpg`), 1…100, in place of
    /// ``quality`` (`--format-quality avif=60,webp=75,jpg=82`). Default none.
    public var formatQuality: [String: Int] = [:]
    /// Watermark images by name, as paths of image files, for the processing's
    /// `watermark(NAME…)` (`--watermark NAME=PATH`). Read when the service starts. Default none.
    public var watermarks: [String: String] = [:]
    /// Named processing chains, for the processing's `preset(NAME)` (`--preset NAME=SPEC`);
    /// the playground offers them. Default none.
    public var presets: [String: String] = [:]
    /// A directory whose files `local:///PATH` sources name (`--local-root DIR`); neither `..`
    /// nor a symbolic link leads out of it. `nil`: local sources are refused. Default `nil`.
    public var localRoot: String?
    /// Whether `/info` answers the EXIF position (GPS) of a source. Default `false`: where a
    /// photograph was taken is left out.
    public var infoGPS = false
    /// Whether a processing may only be `preset(NAME)` steps; any other is refused with `403`.
    /// Default `false`.
    public var presetsOnly = false
    /// Formats `Accept` may pick, in order, when the URL names none: by extension, among the
    /// formats the registry says browsers negotiate (`ImageFormatRegistry/negotiatedFormats`:
    /// AVIF, WebP, JPEG XL). Default `["avif", "webp"]`: JPEG XL only where asked for
    /// (`--negotiate avif,jxl,webp`).
    public var negotiatedFormats: [String] = ["avif", "webp"]
    /// `max-age` of results, in seconds. Default one year (31 536 000).
    public var maxAge = 31_536_000
    /// Bytes of encoded results kept in memory. Default 256 MiB.
    public var memoryCacheBytes = 256 * 1024 * 1024
    /// Bytes of decoded processed images kept in memory, so another format of a result is only
    /// an encoding. Default 64 MiB.
    public var processedMemoryBytes = 64 * 1024 * 1024
    /// Bytes of results and of originals each kept on disk; 0: no limit. Default 10 GiB.
    public var diskCacheBytes = 10 * 1024 * 1024 * 1024
    /// Days results and originals stay on disk. Default 30.
    public var diskCacheDays = 30
    /// Seconds a client connection may stay idle (or trickle a request head) before it is
    /// closed. Default 30.
    public var clientIdleTimeout: TimeInterval = 30
    /// Client connections open at once. A connection past it takes the place of the one idle
    /// the longest (between requests, or still sending its request's head), which is closed;
    /// when every connection has a request in flight, it is answered `503` and closed. The
    /// process's open-file limit is raised to fit it (up to the hard limit) when the service
    /// starts. Default 4096.
    public var maxConnections = 4096
    /// Bytes of a request body read, and dropped, before reading stops: the service takes no
    /// bodies (`405` for other methods, `413` for a `GET` with one) and closes the connection
    /// when the body ends or 2 s after answering such a request, whichever is first. Default
    /// 65 536.
    public var maxRequestBodyBytes = 65_536
    /// A Redis server (`redis://HOST[:PORT]`) shared by several nodes: results are kept there
    /// too, and a result no node has is made by one node while the others wait for it; `nil`:
    /// this node alone. Default `nil`.
    public var redis: String?
    /// Put before every Redis key of the service, so that services can share a server.
    /// Default `kf:`.
    public var redisPrefix = "kf:"
    /// How long connecting to Redis and a Redis command may take, when not the client's
    /// defaults (500 ms each): not a setting of the file, for tests that run slowed down (under
    /// a sanitizer). Default `nil`.
    package var redisTimeout: Duration?
    /// Seconds a node's claim to make a result lives without renewal: the longest a node that
    /// died while making it delays the others. Default 5.
    public var leaseSeconds: TimeInterval = 5

    /// The defaults.
    public init() {}

    /// Reads a JSON file of settings; missing keys keep their defaults.
    ///
    /// - Throws: a one-line error naming the file and what is wrong with it.
    public static func load(file path: String) throws -> ImageServerConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError(description: "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(ImageServerConfiguration.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw ConfigurationError(description: "\(path): '\(key)' has the wrong type: \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            let detail = context.underlyingError.map { "is not JSON: \($0.localizedDescription)" } ?? context.debugDescription
            throw ConfigurationError(description: "\(path): \(detail)")
        } catch {
            throw ConfigurationError(description: "\(path): \(error)")
        }
    }

    /// Checks the settings together.
    ///
    /// - Throws: a one-line error naming the first unusable setting.
    public func validate() throws {
        func require(_ condition: Bool, _ text: String) throws {
            if !condition { throw ConfigurationError(description: text) }
        }
        try require(keys.contains { !$0.isEmpty } || allowUnsigned, "either a signing key (--key) or --allow-unsigned is required")
        try require((0...65_535).contains(port), "port \(port) is not 0…65535")
        try require(processingSlots >= 1, "processing slots must be at least 1")
        try require(queueLimit >= 0, "the queue limit must be 0 or more")
        try require(maxConcurrentFetches >= 1, "concurrent fetches must be at least 1")
        try require(maxSourceBytes > 0 && maxSourcePixels > 0 && maxSourceFrames > 0, "source limits must be positive")
        try require(maxResultPixels > 0 && pixelMemoryBytes > 0, "the result pixel limit and the pixel memory budget must be positive")
        try require((1...100).contains(quality), "quality \(quality) is not 1…100")
        for (name, value) in formatQuality.sorted(by: { $0.key < $1.key }) {
            try require(
                OutputFormat(fileExtension: Substring(name)) != nil, "format-quality names '\(name)', which is not an output format")
            try require((1...100).contains(value), "the quality of \(name), \(value), is not 1…100")
        }
        try require(maxAge >= 0, "max-age must be 0 or more")
        try require(retryAfter >= 0, "retry-after must be 0 or more")
        try require(maxConnections >= 1, "max connections must be at least 1")
        try require(maxRequestBodyBytes >= 0, "max request body bytes must be 0 or more")
        try require(memoryCacheBytes >= 0 && processedMemoryBytes >= 0 && diskCacheBytes >= 0, "cache sizes must be 0 or more")
        try require(diskCacheDays >= 1, "disk cache days must be at least 1")
        try require(maxRedirects >= 0 && maxProcessingSteps >= 1, "max redirects must be 0 or more, max processing steps at least 1")
        for (name, seconds) in [
            ("fetch timeout", fetchTimeout), ("max fetch duration", maxFetchDuration),
            ("client idle timeout", clientIdleTimeout), ("processing timeout", processingTimeout),
        ] {
            try require(
                seconds.isFinite && seconds > 0 && seconds <= 86_400, "the \(name) must be a positive number of seconds up to a day")
        }
        try require(
            minSourceTTL.isFinite && minSourceTTL >= 0 && maxSourceTTL.isFinite && maxSourceTTL >= minSourceTTL,
            "the source TTLs must be 0 or more seconds, the max at least the min")
        // A renewal may take the client's command timeout (0.5 s); three of them must fit.
        try require(leaseSeconds.isFinite && leaseSeconds >= 1.5 && leaseSeconds <= 3600, "the lease must be 1.5 to 3600 seconds")
        if let redis { _ = try redisClientConfiguration(url: redis) }
        if let localRoot { _ = try LocalRoot(localRoot) }
        let negotiable = ImageFormatRegistry.shared.negotiatedFormats
        for name in negotiatedFormats {
            let format = ImageFormatRegistry.shared.format(forFileExtension: name)
            try require(
                format.map(negotiable.contains) == true,
                "negotiated format '\(name)' is not one browsers negotiate: \(negotiable.compactMap(\.fileExtension).joined(separator: " or "))"
            )
        }
    }

    /// Reads the keys present; a missing key keeps its default, an unknown key is refused (a
    /// misspelt limit must not silently fall back to its default).
    public init(from decoder: any Decoder) throws {
        self.init()
        let names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = names.first(where: { CodingKeys(rawValue: $0) == nil && $0 != Self.singleKeyName }) {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown setting '\(unknown)'"))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func read<T: Decodable>(_ key: CodingKeys, into value: inout T) throws {
            if let found = try container.decodeIfPresent(T.self, forKey: key) { value = found }
        }
        try read(.host, into: &host)
        try read(.port, into: &port)
        try read(.keys, into: &keys)
        // `"key": "…"` is one key, the form of a file written before keys could rotate.
        if let single = try decoder.container(keyedBy: AnyKey.self).decodeIfPresent(
            String.self, forKey: AnyKey(stringValue: Self.singleKeyName))
        {
            keys.insert(single, at: 0)
        }
        try read(.allowUnsigned, into: &allowUnsigned)
        try read(.allowPrivateNetworks, into: &allowPrivateNetworks)
        try read(.allowedSources, into: &allowedSources)
        try read(.trustedPrivateSources, into: &trustedPrivateSources)
        try read(.directory, into: &directory)
        try read(.name, into: &name)
        try read(.processingSlots, into: &processingSlots)
        try read(.queueLimit, into: &queueLimit)
        try read(.retryAfter, into: &retryAfter)
        try read(.maxConcurrentFetches, into: &maxConcurrentFetches)
        try read(.fetchTimeout, into: &fetchTimeout)
        try read(.maxFetchDuration, into: &maxFetchDuration)
        try read(.minSourceTTL, into: &minSourceTTL)
        try read(.maxSourceTTL, into: &maxSourceTTL)
        try read(.maxRedirects, into: &maxRedirects)
        try read(.maxSourceBytes, into: &maxSourceBytes)
        try read(.maxSourcePixels, into: &maxSourcePixels)
        try read(.maxResultPixels, into: &maxResultPixels)
        try read(.pixelMemoryBytes, into: &pixelMemoryBytes)
        try read(.maxSourceFrames, into: &maxSourceFrames)
        try read(.maxProcessingSteps, into: &maxProcessingSteps)
        try read(.processingTimeout, into: &processingTimeout)
        try read(.quality, into: &quality)
        try read(.formatQuality, into: &formatQuality)
        try read(.watermarks, into: &watermarks)
        try read(.presets, into: &presets)
        try read(.presetsOnly, into: &presetsOnly)
        try read(.infoGPS, into: &infoGPS)
        try read(.localRoot, into: &localRoot)
        try read(.negotiatedFormats, into: &negotiatedFormats)
        try read(.maxAge, into: &maxAge)
        try read(.memoryCacheBytes, into: &memoryCacheBytes)
        try read(.processedMemoryBytes, into: &processedMemoryBytes)
        try read(.diskCacheBytes, into: &diskCacheBytes)
        try read(.diskCacheDays, into: &diskCacheDays)
        try read(.clientIdleTimeout, into: &clientIdleTimeout)
        try read(.maxConnections, into: &maxConnections)
        try read(.maxRequestBodyBytes, into: &maxRequestBodyBytes)
        try read(.redis, into: &redis)
        try read(.redisPrefix, into: &redisPrefix)
        try read(.leaseSeconds, into: &leaseSeconds)
    }

    /// The quality `format` is written at when the processing asks none: its
    /// ``formatQuality``, else ``quality``.
    public func quality(for format: OutputFormat) -> Int {
        formatQuality.first { OutputFormat(fileExtension: Substring($0.key)) == format }?.value ?? quality
    }

    /// The processing grammar with the watermarks and presets of these settings.
    ///
    /// - Throws: a one-line error naming a watermark that cannot be read or decoded, or a
    ///   preset whose spec the grammar does not take.
    public func grammar() throws(ConfigurationError) -> ProcessorGrammar {
        var watermarkImages: [Watermark] = []
        for (name, path) in watermarks.sorted(by: { $0.key < $1.key }) {
            do {
                let image = try KingfisherImage.decode(data: Data(contentsOf: URL(fileURLWithPath: path)))
                watermarkImages.append(Watermark(name: name, image: image))
            } catch {
                throw ConfigurationError(description: "watermark '\(name)': cannot use \(path): \(error.localizedDescription)")
            }
        }
        do {
            return try ProcessorGrammar.standard.withWatermarks(watermarkImages)
                .withPresets(presets.sorted { $0.key < $1.key }.map { ProcessorGrammar.Preset(name: $0.key, spec: $0.value) })
        } catch {
            throw ConfigurationError(description: "\(error)".components(separatedBy: "\n")[0])
        }
    }

    /// The Redis client's settings for `url`.
    func redisClientConfiguration(url: String) throws(ConfigurationError) -> RedisClient.Configuration {
        guard let parsed = URL(string: url) else { throw ConfigurationError(description: "redis: \(url) is not a URL") }
        do {
            var client = try RedisClient.Configuration(url: parsed)
            if let redisTimeout {
                client.connectTimeout = redisTimeout
                client.commandTimeout = redisTimeout
            }
            return client
        } catch {
            throw ConfigurationError(description: "redis: \(error.description)")
        }
    }

    /// The config file's name for one key, beside `keys`.
    private static let singleKeyName = "key"

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private enum CodingKeys: String, CodingKey {
        case host, port, keys, allowUnsigned, allowPrivateNetworks, allowedSources, trustedPrivateSources, directory, name
        case processingSlots, queueLimit, retryAfter, maxConcurrentFetches, fetchTimeout, maxFetchDuration, maxRedirects
        case maxSourceBytes, maxSourcePixels, maxSourceFrames, maxProcessingSteps, quality, negotiatedFormats, maxAge
        case memoryCacheBytes, processedMemoryBytes, diskCacheBytes, diskCacheDays, clientIdleTimeout
        case maxConnections, maxRequestBodyBytes, processingTimeout, maxResultPixels, pixelMemoryBytes
        case redis, redisPrefix, leaseSeconds, watermarks, presets, presetsOnly, formatQuality, infoGPS, localRoot
        case minSourceTTL, maxSourceTTL
    }
}

/// A setting of the service is unusable; the text says which and why.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// One line.
    public var description: String
}
