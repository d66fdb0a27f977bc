// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Turns an `ImageProcessItem` into an image, as Kingfisher's `ImageProcessor`.
///
/// The ``identifier`` is part of the cache key of processed images: processors that do the same
/// work must have the same identifier, and two processors are equal when their identifiers are.
/// The empty identifier belongs to `DefaultImageProcessor`.
///
/// The built-in processors also implement `ImageProcessing`, the throwing form of the imaging
/// module; the library runs them through it, so a failure says why (a decoding error, an output
/// over the pixel limit) instead of only that the processor returned `nil`.
public protocol ImageProcessor: Sendable {
    /// Identifies what the processor does; part of the cache key.
    var identifier: String { get }

    /// Processes `item`. Returns `nil` when it cannot (the caller reports `processingFailed`).
    func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage?
}

extension ImageProcessor where Self: ImageProcessing {
    /// Runs `ImageProcessing.process(_:in:)` with the options' scale and limits; `nil` when it
    /// throws.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        try? process(item, in: options.processingContext)
    }
}

extension ImageProcessor {
    /// A processor that runs `self`, then `another` on its output. Its identifier is
    /// `"\(identifier)|>\(another.identifier)"`.
    public func append(another: any ImageProcessor) -> any ImageProcessor {
        let first = self
        return GeneralProcessor(
            identifier: identifier + "|>" + another.identifier,
            throwing: { item, options in
                let image = try first.processedImage(from: item, options: options)
                return try another.processedImage(from: .image(image), options: options)
            })
    }

    /// Processes `data` like `process(item: .data(data), options:)`, but says why it failed:
    /// the decoding error for data that is not a usable image, else
    /// ``KingfisherError/ProcessorErrorReason/processingFailed(processor:item:)``.
    public func processedImage(from data: Data, options: KingfisherParsedOptionsInfo) throws(KingfisherError) -> KFCrossPlatformImage {
        try processedImage(from: .data(data), options: options)
    }

    /// Processes `item`, throwing what went wrong:
    /// ``KingfisherError/ProcessorErrorReason/processingFailed(processor:item:)``, whose processor
    /// is a ``KingfisherError/DecodingFailure`` saying why when data does not decode (or encode),
    /// a ``KingfisherError/ProcessingRefusal`` when a built-in processor refuses to run. The
    /// built-in processors and their compositions say why from the work itself;
    /// any other processor's `nil` becomes `processingFailed`.
    func processedImage(from item: ImageProcessItem, options: KingfisherParsedOptionsInfo) throws(KingfisherError) -> KFCrossPlatformImage {
        let image: KFCrossPlatformImage?
        do {
            if let throwing = self as? any ImageProcessing {
                image = try throwing.process(item, in: options.processingContext)
            } else if let general = self as? GeneralProcessor {
                image = try general.processThrowing(item, options)
            } else {
                image = process(item: item, options: options)
            }
        } catch let error as KingfisherError {
            throw error
        } catch let error as ImageCodingError {
            throw .processorError(
                reason: .processingFailed(
                    processor: KingfisherError.DecodingFailure(processor: self, reason: error),
                    item: item))
        } catch let error as ImageProcessingError {
            throw .processorError(
                reason: .processingFailed(processor: KingfisherError.ProcessingRefusal(processor: self, reason: error), item: item))
        } catch {
            image = nil
        }
        guard let image else { throw .processorError(reason: .processingFailed(processor: self, item: item)) }
        return image
    }
}

infix operator |> : AdditionPrecedence

/// Composes two processors: `left` runs first, then `right` on its result. The identifier is
/// `"<left>|><right>"`.
public func |> (left: any ImageProcessor, right: any ImageProcessor) -> any ImageProcessor {
    left.append(another: right)
}

/// Two processors are equal when their identifiers are equal.
public func == (left: any ImageProcessor, right: any ImageProcessor) -> Bool {
    left.identifier == right.identifier
}

/// Two processors differ when their identifiers differ.
public func != (left: any ImageProcessor, right: any ImageProcessor) -> Bool {
    left.identifier != right.identifier
}

/// A processor made from an identifier and a closure; what `|>` builds.
public struct GeneralProcessor: ImageProcessor {
    /// The processor's identifier.
    public let identifier: String
    fileprivate let processThrowing: @Sendable (ImageProcessItem, KingfisherParsedOptionsInfo) throws -> KFCrossPlatformImage?

    /// Creates a processor that runs `body`.
    public init(
        identifier: String,
        _ body: @escaping @Sendable (ImageProcessItem, KingfisherParsedOptionsInfo) -> KFCrossPlatformImage?
    ) {
        self.identifier = identifier
        processThrowing = body
    }

    /// A composition keeps the error of the step that failed.
    fileprivate init(
        identifier: String,
        throwing body: @escaping @Sendable (ImageProcessItem, KingfisherParsedOptionsInfo) throws -> KFCrossPlatformImage
    ) {
        self.identifier = identifier
        processThrowing = body
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first. `nil` on failure.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        (try? processThrowing(item, options)) ?? nil
    }
}
