// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// When a cached item expires.
public enum StorageExpiration: Sendable, Hashable {
    /// Never expires.
    case never
    /// Expires this many seconds after it is stored (or last extended).
    case seconds(TimeInterval)
    /// Expires this many days (86 400 s each) after it is stored (or last extended).
    case days(Int)
    /// Expires at a fixed date.
    case date(Date)
    /// Already expired: an item stored with it is not stored at all.
    case expired

    /// The expiration date of an item stored (or extended) at `date`.
    public func estimatedExpirationSince(_ date: Date) -> Date {
        switch self {
        case .never: return .distantFuture
        case .seconds(let seconds): return date.addingTimeInterval(seconds)
        case .days(let days): return date.addingTimeInterval(TimeInterval(days) * 86_400)
        case .date(let fixed): return fixed
        case .expired: return .distantPast
        }
    }

    /// The lifetime this expiration gives an item stored now; 0 for `.expired` and past dates.
    package var timeInterval: TimeInterval {
        switch self {
        case .never: return .infinity
        case .seconds(let seconds): return seconds
        case .days(let days): return TimeInterval(days) * 86_400
        case .date(let fixed): return max(0, fixed.timeIntervalSinceNow)
        case .expired: return -.infinity
        }
    }

    /// Whether an item stored with this expiration would already be expired.
    public var isExpired: Bool { timeInterval <= 0 }
}

/// How reading a cached item extends its expiration.
public enum ExpirationExtending: Sendable, Hashable {
    /// Reading does not change the expiration.
    case none
    /// Reading restarts the item's own lifetime from now.
    case cacheTime
    /// Reading sets the expiration to `expiration` counted from now.
    case expirationTime(StorageExpiration)
}

/// A value whose memory cost the memory cache can count.
public protocol CacheCostCalculable {
    /// The cost, in bytes for images.
    var cacheCost: Int { get }
}

/// A value the disk cache can turn into bytes and back.
public protocol DataTransformable {
    /// The bytes to store.
    func toData() throws -> Data
    /// The value read back from `data`.
    static func fromData(_ data: Data) throws -> Self
    /// An empty value.
    static var empty: Self { get }
}

extension KingfisherImage: CacheCostCalculable {
    /// `KingfisherImage.cost`: the bytes of all frames' pixels.
    public var cacheCost: Int { cost }
}

extension Data: DataTransformable {
    /// The data itself.
    public func toData() throws -> Data { self }
    /// `data` itself.
    public static func fromData(_ data: Data) throws -> Data { data }
    /// Empty data.
    public static let empty = Data()
}

/// Where a retrieved image came from.
public enum CacheType: Sendable, Hashable {
    /// Not cached: it came from its source.
    case none
    /// The memory cache.
    case memory
    /// The disk cache.
    case disk

    /// Whether the image came from a cache.
    public var cached: Bool { self != .none }
}
