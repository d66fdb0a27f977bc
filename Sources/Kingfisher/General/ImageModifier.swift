// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Changes an image right before it is handed to the caller (never the cached copy), as
/// Kingfisher's modifiers set rendering modes or alignment insets.
public protocol ImageModifier: Sendable {
    /// The image to hand over.
    func modify(_ image: KFCrossPlatformImage) -> KFCrossPlatformImage
}

/// An ``ImageModifier`` from a closure.
public struct AnyImageModifier: ImageModifier {
    private let block: @Sendable (KFCrossPlatformImage) throws -> KFCrossPlatformImage

    /// Creates a modifier that runs `modify`; when it throws, the image is handed over unchanged.
    public init(modify: @escaping @Sendable (KFCrossPlatformImage) throws -> KFCrossPlatformImage) {
        block = modify
    }

    public func modify(_ image: KFCrossPlatformImage) -> KFCrossPlatformImage {
        (try? block(image)) ?? image
    }
}
