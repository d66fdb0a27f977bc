// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Wrapper for Kingfisher compatible types. This type provides an extension point for
/// convenience methods in Kingfisher, reached through the `kf` property (`data.kf.imageFormat`,
/// `image.kf.pngRepresentation()`), exactly as in Kingfisher on Apple platforms.
public struct KingfisherWrapper<Base> {
    /// The wrapped value.
    public let base: Base

    /// Creates a wrapper around `base`.
    public init(_ base: Base) {
        self.base = base
    }
}

extension KingfisherWrapper: Sendable where Base: Sendable {}

/// A type that has Kingfisher extensions, for reference types.
public protocol KingfisherCompatible: AnyObject {}

/// A type that has Kingfisher extensions, for value types.
public protocol KingfisherCompatibleValue {}

extension KingfisherCompatible {
    /// Gets a namespace holder for Kingfisher compatible types. Settable, as Kingfisher's, so
    /// that mutating members of the wrapper can be called on it; setting does nothing.
    public var kf: KingfisherWrapper<Self> {
        get { KingfisherWrapper(self) }
        set {}
    }
}

extension KingfisherCompatibleValue {
    /// Gets a namespace holder for Kingfisher compatible types. Settable, as Kingfisher's, so
    /// that mutating members of the wrapper can be called on it; setting does nothing.
    public var kf: KingfisherWrapper<Self> {
        get { KingfisherWrapper(self) }
        set {}
    }
}

extension Data: KingfisherCompatibleValue {}
extension CGSize: KingfisherCompatibleValue {}
