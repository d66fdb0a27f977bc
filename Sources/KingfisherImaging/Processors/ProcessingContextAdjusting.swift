// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A step that changes how the whole ``ImageProcessorChain`` it stands in runs, wherever it
/// stands: the chain adjusts its context with every such step before its first step runs
/// (`dpr(N)` multiplies the scale, `keep(icc)` keeps the source's colour profile). On its own,
/// or composed with `|>`, such a step passes images through.
public protocol ProcessingContextAdjusting: ImageProcessing {
    /// Adjusts `context` for the chain.
    ///
    /// - Throws: ``ImageProcessingError/invalidParameter(processor:detail:)`` for a step that
    ///   cannot be applied.
    func adjust(_ context: inout ImageProcessingContext) throws
}

extension ProcessingContextAdjusting {
    /// Checks the step (``adjust(_:)`` on a copy of `context`), and decodes a `.data` item.
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        var checked = context
        try adjust(&checked)
        return try processDecodingData(item, in: context) { $0 }
    }
}

/// Keeps the source's colour profile in a chain (the grammar's `keep(icc)`): the chain decodes
/// with ``ImageCreatingOptions/preserveColorProfile``, so its pixels stay in the source's colour
/// space and encoders embed the profile (PNG, JPEG, WebP), instead of converting to sRGB.
public struct ColorProfileKeepingProcessor: ProcessingContextAdjusting {
    /// `com.onevcat.Kingfisher.ColorProfileKeepingProcessor`.
    public let identifier = "com.onevcat.Kingfisher.ColorProfileKeepingProcessor"

    /// Creates the step.
    public init() {}

    /// Asks the chain's decoding to keep the profile.
    public func adjust(_ context: inout ImageProcessingContext) throws {
        context.imageCreatingOptions.preserveColorProfile = true
    }
}
