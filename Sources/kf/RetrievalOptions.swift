// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import ArgumentParser
import Foundation
import Kingfisher

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache and network flags `kf get` and `kf prefetch` share, turned into Kingfisher options.
struct RetrievalOptions: ParsableArguments {
    @Option(help: "Processors to apply, e.g. 'downsample(400x400)|>round(12)'; each processor is cached under its own key.")
    var processor: String?

    @OptionGroup var cache: CacheDirectoryOptions

    @OptionGroup var transport: TransportOptions

    @Flag(help: "Skip the cache lookup and load from the source.")
    var forceRefresh = false

    @Flag(help: "Also cache the original data, so other processors start from it without the network.")
    var cacheOriginal = false

    @Flag(help: "Cache in memory only (nothing is written to disk).")
    var memoryOnly = false

    @Option(help: "Retry failed responses: N times, SECONDS apart (default 3), e.g. '2' or '2,0.5'.")
    var retry: String?

    @Option(help: "A request header, 'Name: value' (repeatable).")
    var header: [String] = []

    @Option(help: "Seconds a request may go without progress before it fails.")
    var timeout: Double = 15

    @Option(help: "Days until cached files expire, or 'never' (default: the cache's, 7 days).")
    var diskExpiration: String?

    @Flag(
        help:
            "Follow the origin's HTTP caching headers (RFC 9111): use a cached image while fresh, then revalidate it (If-None-Match / If-Modified-Since; a 304 downloads nothing); never write no-store responses to disk."
    )
    var httpCache = false

    func validate() throws {
        _ = try retryStrategy()
        _ = try headers()
        _ = try expiration()
        if let processor {
            do { _ = try ImageProcessorSpec.processor(from: processor) } catch { throw ValidationError("\(error)") }
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    /// The cache, or exits with ``ExitStatus/cannotCreate``.
    func openCache() -> ImageCache { cache.open() }

    /// Kingfisher options for these flags, with `cache`; the caller waits for caching to end
    /// (the process exits right after).
    func options(cache: ImageCache) throws -> KingfisherOptionsInfo {
        let downloader = ImageDownloader(name: "kf", transport: transport.transport())
        downloader.downloadTimeout = timeout
        var options: KingfisherOptionsInfo = [.targetCache(cache), .downloader(downloader), .waitForCache, .callbackQueue(.untouch)]
        if let processor { options.append(.processor(try ImageProcessorSpec.processor(from: processor))) }
        if forceRefresh { options.append(.forceRefresh) }
        if cacheOriginal { options.append(.cacheOriginalImage) }
        if memoryOnly { options.append(.cacheMemoryOnly) }
        if let strategy = try retryStrategy() { options.append(.retryStrategy(strategy)) }
        let headers = try headers()
        if !headers.isEmpty {
            options.append(
                .requestModifier(
                    AnyModifier { request in
                        var request = request
                        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
                        return request
                    }))
        }
        if let expiration = try expiration() { options.append(.diskCacheExpiration(expiration)) }
        if httpCache { options.append(.httpCachePolicy(.followHeaders)) }
        return options
    }

    private func retryStrategy() throws -> DelayRetryStrategy? {
        guard let retry else { return nil }
        let parts = retry.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let count = Int(parts[0]), count >= 0,
            let seconds = parts.count == 2 ? Double(parts[1]) : 3, seconds >= 0
        else {
            throw ValidationError("--retry takes N or N,SECONDS, e.g. '2,0.5'")
        }
        return DelayRetryStrategy(maxRetryCount: count, retryInterval: .seconds(seconds))
    }

    private func headers() throws -> [(String, String)] {
        try header.map { line in
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw ValidationError("--header takes 'Name: value', got '\(line)'")
            }
            return (
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
    }

    private func expiration() throws -> StorageExpiration? {
        guard let diskExpiration else { return nil }
        if diskExpiration == "never" { return .never }
        guard let days = Int(diskExpiration), days > 0 else { throw ValidationError("--disk-expiration takes DAYS or 'never'") }
        return .days(days)
    }
}

/// A command-line source: an http(s) URL, a `data:` URL with base64 content, a `file:` URL or a
/// file path. Any other `scheme://` goes to the downloader, which refuses it naming the scheme,
/// rather than being read as a relative path.
func imageSource(from text: String) -> Source {
    if text.hasPrefix("data:") {
        return .provider(Base64ImageDataProvider(base64String: text, cacheKey: "data:\(text.kf.sha256)"))
    }
    if let separator = text.range(of: "://"), isURLScheme(text[..<separator.lowerBound]), let url = URL(string: text) {
        return url.isFileURL ? url.convertToSource() : .network(url)
    }
    return URL(fileURLWithPath: text).convertToSource()
}

/// Whether `text` is a URL scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`).
private func isURLScheme(_ text: Substring) -> Bool {
    guard let first = text.first, first.isASCII, first.isLetter else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
}

/// The exit status for a failed retrieval: 65 for data that is not a usable image, 66 for an
/// image not in the cache with --only-from-cache or a file that cannot be read, 69 for network
/// failures, 1 otherwise. A provider's error and the last of exhausted alternatives decide.
func exitStatus(for error: KingfisherError) -> Int32 {
    switch error {
    case .processorError: return ExitStatus.refusedInput
    case .cacheError(reason: .imageNotExisting): return ExitStatus.noInput
    case .imageSettingError(reason: .dataProviderError(_, let underlying)):
        if let underlying = underlying as? KingfisherError { return exitStatus(for: underlying) }
        return underlying is ImageCodingError ? ExitStatus.refusedInput : ExitStatus.noInput
    case .imageSettingError(reason: .alternativeSourcesExhausted(let failures)):
        return failures.last.map { exitStatus(for: $0.error) } ?? ExitStatus.unavailable
    case .requestError, .responseError, .imageSettingError: return ExitStatus.unavailable
    default: return 1
    }
}
