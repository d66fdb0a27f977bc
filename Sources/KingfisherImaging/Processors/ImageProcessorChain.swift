// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Processors run one after another, each on the previous one's output: what
/// ``ImageProcessorSpec`` builds, and the imaging module's form of Kingfisher's `a |> b`.
public struct ImageProcessorChain: ImageProcessing {
    /// The processors, in the order they run.
    public let steps: [any ImageProcessing]
    /// The steps' identifiers joined by `|>`, as Kingfisher's `a |> b` names it, so cache keys
    /// agree; `""` (``DefaultImageProcessor``'s) when there are no steps.
    public let identifier: String

    /// Creates a chain of `steps`; with none, it decodes and passes images through like
    /// ``DefaultImageProcessor``.
    public init(_ steps: [any ImageProcessing]) {
        self.steps = steps
        identifier = steps.map(\.identifier).joined(separator: "|>")
    }

    /// Runs the first step on `item` and every later one on the image it produced, in the
    /// context its ``ProcessingContextAdjusting`` steps make (`dpr(N)`, `keep(icc)`).
    public func process(_ item: ImageProcessItem, in context: ImageProcessingContext) throws -> KingfisherImage {
        var context = context
        for case let step as any ProcessingContextAdjusting in steps { try step.adjust(&context) }
        guard let first = steps.first else { return try DefaultImageProcessor.default.process(item, in: context) }
        var image = try first.process(item, in: context)
        for step in steps.dropFirst() {
            // A step's output is alive with its input: most steps make one of the same size
            // (resizing ones charge their own size again).
            if let pixelMemory = context.imageCreatingOptions.pixelMemory,
                let pixels = PixelArea.total(width: image.pixelWidth, height: image.pixelHeight, frames: image.heldFrameCount)
            {
                try pixelMemory.charge(pixels * PixelBuffer.bytesPerPixel)
            }
            image = try step.process(.image(image), in: context)
        }
        return image
    }
}
