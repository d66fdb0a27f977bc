// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

/// Counts how often it runs; decodes with the default processor, then resizes to 10x10, so a
/// test can tell its output.
package final class CountingProcessor: ImageProcessor {
    package let identifier: String
    private let counter = Locked(0)

    package init(_ identifier: String) { self.identifier = identifier }

    /// How often it has run.
    package var runs: Int { counter.withLock { $0 } }

    package func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        counter.withLock { $0 += 1 }
        return DefaultImageProcessor.default.process(item: item, options: options)?.kf.resize(to: CGSize(width: 10, height: 10))
    }
}
