// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher
@testable import KingfisherImaging

/// Runs another processor and records, for each run, whether it was given data or an image and
/// the largest pixel buffer it allocated: what a test needs to see that a manager let the
/// processor decode at a reduced scale, on whatever queue the manager ran it.
package final class AllocationRecordingProcessor: ImageProcessor, ImageProcessing {
    package struct Run: Sendable {
        package var wasData: Bool
        package var largestByteCount: Int
    }

    package let inner: any ImageProcessing
    private let recorded = Locked<[Run]>([])

    package init(_ inner: any ImageProcessing) { self.inner = inner }

    package var identifier: String { inner.identifier }

    /// Every run so far, in order.
    package var runs: [Run] { recorded.withLock { $0 } }

    package func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        let (image, largest) = try PixelAllocationRecord.recording { try inner.process(item, in: context) }
        let wasData = if case .data = item { true } else { false }
        recorded.withLock { $0.append(Run(wasData: wasData, largestByteCount: largest)) }
        return image
    }
}
