// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Something that can be downloaded and cached: a URL and the key it is cached under.
public protocol Resource: Sendable {
    /// The key the image is cached under.
    var cacheKey: String { get }
    /// Where the image is downloaded from.
    var downloadURL: URL { get }
}

extension Resource {
    /// The resource as a ``Source``: a file URL becomes a ``LocalFileImageDataProvider`` (read
    /// from disk, never downloaded), anything else a network source.
    ///
    /// - Parameter overrideCacheKey: A key to use instead of ``cacheKey``. Default `nil`.
    public func convertToSource(overrideCacheKey: String? = nil) -> Source {
        let key = overrideCacheKey ?? cacheKey
        if downloadURL.isFileURL {
            return .provider(LocalFileImageDataProvider(fileURL: downloadURL, cacheKey: key))
        }
        return .network(KF.ImageResource(downloadURL: downloadURL, cacheKey: key))
    }
}

/// A URL with the key its image is cached under; Kingfisher's old top-level name.
@available(*, deprecated, message: "Clashes with the asset catalogue's ImageResource on Apple platforms.", renamed: "KF.ImageResource")
public typealias ImageResource = KF.ImageResource

/// Kingfisher's namespace for the builder and its types.
public enum KF {
    /// A URL with the key its image is cached under.
    public struct ImageResource: Resource, Hashable {
        /// The key the image is cached under.
        public let cacheKey: String
        /// Where the image is downloaded from.
        public let downloadURL: URL

        /// Creates a resource.
        ///
        /// - Parameters:
        ///   - downloadURL: Where the image is downloaded from.
        ///   - cacheKey: The key; default `nil`, meaning `downloadURL.cacheKey` (the
        ///     absolute string, or a local-file key for a file URL).
        public init(downloadURL: URL, cacheKey: String? = nil) {
            self.downloadURL = downloadURL
            self.cacheKey = cacheKey ?? downloadURL.cacheKey
        }
    }
}

extension URL: Resource {
    /// The absolute string; for a file URL, ``localFileCacheKey``.
    public var cacheKey: String { isFileURL ? localFileCacheKey : absoluteString }

    /// The URL itself.
    public var downloadURL: URL { self }

    /// The prefix of local-file cache keys: "kingfisher.local.cacheKey".
    public static let localFileCacheKeyPrefix = "kingfisher.local.cacheKey"

    /// A file URL's cache key, as Kingfisher makes it: the prefix, then the path from the last
    /// `.app`/`.appex` component onward (the whole path where there is none, as on Linux),
    /// then `?query` if any. A moved app bundle keeps its keys.
    public var localFileCacheKey: String {
        var kept: [String] = []
        for part in pathComponents.reversed() {
            kept.append(part)
            if part.hasSuffix(".app") || part.hasSuffix(".appex") { break }
        }
        let path = "\(Self.localFileCacheKeyPrefix)/\(kept.reversed().joined(separator: "/"))"
        return query.map { "\(path)?\($0)" } ?? path
    }
}
