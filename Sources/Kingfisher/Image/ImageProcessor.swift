import Foundation

/// What a processor works on: an image, or data still to be decoded.
public enum ImageProcessItem: Sendable {
    /// An image to process.
    case image(KFCrossPlatformImage)
    /// Data to decode (and process).
    case data(Data)
}

/// Turns an ``ImageProcessItem`` into an image, as Kingfisher's `ImageProcessor`.
///
/// The ``identifier`` is part of the cache key of processed images: processors that do the same
/// work must have the same identifier, and two processors are equal when their identifiers are.
/// The empty identifier belongs to ``DefaultImageProcessor``.
public protocol ImageProcessor: Sendable {
    /// Identifies what the processor does; part of the cache key.
    var identifier: String { get }

    /// Processes `item`. Returns `nil` when it cannot (the caller reports `processingFailed`).
    func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage?
}

extension ImageProcessor {
    /// A processor that runs `self`, then `another` on its output. Its identifier is
    /// `"\(identifier)|>\(another.identifier)"`.
    public func append(another: any ImageProcessor) -> any ImageProcessor {
        let first = self
        return GeneralProcessor(identifier: identifier + "|>" + another.identifier) { item, options in
            guard let image = first.process(item: item, options: options) else { return nil }
            return another.process(item: .image(image), options: options)
        }
    }

    /// Processes `data` like `process(item: .data(data), options:)`, but says why it failed:
    /// the decoding error for data that is not a usable image, else
    /// ``KingfisherError/ProcessorErrorReason/processingFailed(processor:item:)``.
    public func processedImage(from data: Data, options: KingfisherParsedOptionsInfo) throws -> KFCrossPlatformImage {
        if let image = process(item: .data(data), options: options) { return image }
        // Only on failure: decode again to find the reason (a refused header costs nothing).
        _ = try KingfisherImage.decode(data: data, options: options.imageCreatingOptions)
        throw KingfisherError.processorError(reason: .processingFailed(processor: self, item: .data(data)))
    }

    /// Decodes data with ``DefaultImageProcessor`` and then processes the image: what processors
    /// that work on images do with a `.data` item.
    func processDecodingData(
        _ item: ImageProcessItem, options: KingfisherParsedOptionsInfo,
        _ body: (KFCrossPlatformImage) -> KFCrossPlatformImage?
    ) -> KFCrossPlatformImage? {
        switch item {
        case .image(let image):
            return body(image.kf.scaled(to: options.scaleFactor))
        case .data:
            guard let image = DefaultImageProcessor.default.process(item: item, options: options) else { return nil }
            return body(image)
        }
    }
}

infix operator |>: AdditionPrecedence

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
    private let body: @Sendable (ImageProcessItem, KingfisherParsedOptionsInfo) -> KFCrossPlatformImage?

    /// Creates a processor that runs `body`.
    public init(identifier: String,
                _ body: @escaping @Sendable (ImageProcessItem, KingfisherParsedOptionsInfo) -> KFCrossPlatformImage?) {
        self.identifier = identifier
        self.body = body
    }

    /// Processes `item` as the type describes; a `.data` item is decoded first. `nil` on failure.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        body(item, options)
    }
}

/// Decodes data into an image and passes images through (at `options.scaleFactor`).
/// Identifier `""`.
public struct DefaultImageProcessor: ImageProcessor {
    /// The shared instance.
    public static let `default` = DefaultImageProcessor()
    /// Always `""`.
    public let identifier = ""

    /// Creates the default processor; prefer ``default``.
    public init() {}

    /// Decodes `.data` with the options' decoding settings (scale, first frame only, pixel
    /// limit); returns `.image` rescaled to `options.scaleFactor`.
    public func process(item: ImageProcessItem, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        switch item {
        case .image(let image):
            return image.kf.scaled(to: options.scaleFactor)
        case .data(let data):
            return KingfisherWrapper<KFCrossPlatformImage>.image(data: data, options: options.imageCreatingOptions)
        }
    }
}
