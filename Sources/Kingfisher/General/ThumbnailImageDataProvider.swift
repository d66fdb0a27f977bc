// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Makes a small version of a local image file and provides it encoded, as Kingfisher's
/// `ThumbnailImageDataProvider`: the full-size image never reaches the cache, only the thumbnail.
///
/// The file is decoded straight to a thumbnail whose longest side is at most ``maxPixelSize``
/// pixels (`KingfisherImage.downsampled(data:maxPixelSize:)`: JPEG and WebP are decoded
/// at a reduced scale, so a large photo is never held at full size), upright, and encoded in the
/// file's own format when this library writes it (PNG, JPEG, GIF, WebP, AVIF; lossy ones at
/// quality 0.9), else as PNG. The work runs on a global `.userInitiated` queue.
///
/// On Linux there are no embedded (EXIF) thumbnails to take instead, so ``alwaysCreateThumbnail``
/// only takes part in the cache key: the thumbnail is always made from the image.
public struct ThumbnailImageDataProvider: ImageDataProvider {
    /// Why a thumbnail could not be provided. A file that cannot be read throws Foundation's error
    /// naming the file; one that cannot be decoded throws `ImageCodingError` saying why.
    public enum ThumbnailImageDataProviderError: Error {
        /// ``ThumbnailImageDataProvider/url`` is not a file URL.
        case invalidImageSource
        /// The image decoded, but no thumbnail could be made of it.
        case invalidThumbnail
        /// The thumbnail could not be encoded.
        case writeDataError
        /// The encoded thumbnail could not be finished.
        case finalizeDataError
    }

    /// The image file.
    public let url: URL
    /// The longest side of the thumbnail, in pixels. An image already smaller keeps its size.
    public var maxPixelSize: CGFloat
    /// Kingfisher's choice between an embedded thumbnail and one made from the image; see the type.
    public var alwaysCreateThumbnail: Bool
    /// The key; default `"<url>_thumb_<maxPixelSize>_<alwaysCreateThumbnail>"`, as Kingfisher's.
    public var cacheKey: String

    /// Creates a provider for the image file at `url`.
    public init(url: URL, maxPixelSize: CGFloat, alwaysCreateThumbnail: Bool = true, cacheKey: String? = nil) {
        self.url = url
        self.maxPixelSize = maxPixelSize
        self.alwaysCreateThumbnail = alwaysCreateThumbnail
        self.cacheKey = cacheKey ?? "\(url.absoluteString)_thumb_\(maxPixelSize)_\(alwaysCreateThumbnail)"
    }

    public func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            handler(Result { try thumbnailData() })
        }
    }

    /// The thumbnail, encoded; runs on the calling thread.
    func thumbnailData() throws -> Data {
        guard url.isFileURL else { throw ThumbnailImageDataProviderError.invalidImageSource }
        let file = try Data(contentsOf: url)
        let side = Int(maxPixelSize.rounded(.down))
        guard side > 0 else { throw ThumbnailImageDataProviderError.invalidThumbnail }
        let thumbnail = try KingfisherImage.downsampled(data: file, maxPixelSize: side)
        let format: ImageFileFormat = thumbnail.format.isEncodable ? thumbnail.format : .PNG
        do {
            return try thumbnail.encoded(as: format, compressionQuality: 0.9)
        } catch {
            throw ThumbnailImageDataProviderError.writeDataError
        }
    }

    /// The file URL.
    public var contentURL: URL? { url }
}
