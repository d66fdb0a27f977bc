// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What a cache lookup found.
public enum ImageCacheResult: Sendable {
    /// Found on disk (and now also in memory).
    case disk(KFCrossPlatformImage)
    /// Found in memory.
    case memory(KFCrossPlatformImage)
    /// Not found.
    case none

    /// The image found, if any.
    public var image: KFCrossPlatformImage? {
        switch self {
        case .disk(let image), .memory(let image): return image
        case .none: return nil
        }
    }

    /// Where the image was found.
    public var cacheType: CacheType {
        switch self {
        case .disk: return .disk
        case .memory: return .memory
        case .none: return .none
        }
    }
}

/// The outcome of storing an image: memory storing cannot fail, disk storing can.
public struct CacheStoreResult: Sendable {
    /// Always success.
    public let memoryCacheResult: Result<Void, Never>
    /// Success, or the disk error.
    public let diskCacheResult: Result<Void, KingfisherError>
}

extension Notification.Name {
    /// Posted by an ``ImageCache`` after cleaning removed files from its disk storage; the
    /// removed file names are in `userInfo[KingfisherDiskCacheCleanedHashKey]`. Posted on the
    /// thread that cleaned (on Linux there may be no main thread servicing a queue).
    public static let KingfisherDidCleanDiskCache = Notification.Name("com.onevcat.Kingfisher.KingfisherDidCleanDiskCache")
}

/// The `userInfo` key of `Notification.Name.KingfisherDidCleanDiskCache`: `[String]`
/// of removed file names (hashes).
public let KingfisherDiskCacheCleanedHashKey = "com.onevcat.Kingfisher.cleanedHash"

extension String {
    /// `self` for the default processor, else `self@identifier`: the key a processed image is
    /// cached under.
    func computedKey(with identifier: String) -> String {
        identifier.isEmpty ? self : "\(self)@\(identifier)"
    }
}
