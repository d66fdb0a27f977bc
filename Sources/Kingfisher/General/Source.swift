// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Where an image comes from: the network or a data provider.
public enum Source: Sendable, Hashable {
    /// Downloaded by an ``ImageDownloader``.
    case network(any Resource)
    /// Produced by an ``ImageDataProvider`` (a file, base64 text, bytes in memory, …).
    case provider(any ImageDataProvider)

    /// The identifiers of image targets' requests, as Kingfisher's: each new request of a target
    /// gets the next one, and a result for an earlier one is stale
    /// (`kf.taskIdentifier`).
    public enum Identifier {
        /// The identifier's type.
        public typealias Value = UInt

        /// The last identifier given.
        @MainActor static private(set) var current: Value = 0

        /// The next identifier.
        @MainActor static func next() -> Value {
            current &+= 1
            return current
        }
    }

    /// The key the image is cached under.
    public var cacheKey: String {
        switch self {
        case .network(let resource): return resource.cacheKey
        case .provider(let provider): return provider.cacheKey
        }
    }

    /// The download URL, or the provider's content URL.
    public var url: URL? {
        switch self {
        case .network(let resource): return resource.downloadURL
        case .provider(let provider): return provider.contentURL
        }
    }

    /// The resource of a network source.
    public var asResource: (any Resource)? {
        if case .network(let resource) = self { return resource }
        return nil
    }

    /// The provider of a provider source.
    public var asProvider: (any ImageDataProvider)? {
        if case .provider(let provider) = self { return provider }
        return nil
    }

    /// Equal when both are network sources, or both provider sources, with the same cache key
    /// and URL (as Kingfisher compares them): a network source never equals a provider source.
    public static func == (lhs: Source, rhs: Source) -> Bool {
        switch (lhs, rhs) {
        case (.network(let left), .network(let right)):
            return left.cacheKey == right.cacheKey && left.downloadURL == right.downloadURL
        case (.provider(let left), .provider(let right)):
            return left.cacheKey == right.cacheKey && left.contentURL == right.contentURL
        case (.network, .provider), (.provider, .network):
            return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .network(let resource):
            hasher.combine(resource.cacheKey)
            hasher.combine(resource.downloadURL)
        case .provider(let provider):
            hasher.combine(provider.cacheKey)
            hasher.combine(provider.contentURL)
        }
    }
}
