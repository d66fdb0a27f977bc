// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A serializer that stores images in one chosen format, as Kingfisher's
/// `FormatIndicatedCacheSerializer`. When encoding in that format fails, it tries the original
/// data's format, then the original bytes themselves, then PNG.
public struct FormatIndicatedCacheSerializer: CacheSerializer {
    /// Stores PNG (alpha kept).
    public static let png = FormatIndicatedCacheSerializer(imageFormat: .PNG, compressionQuality: nil)
    /// Stores JPEG at quality 1.0.
    public static let jpeg = FormatIndicatedCacheSerializer(imageFormat: .JPEG, compressionQuality: 1.0)
    /// Stores GIF (an unmodified GIF keeps its original bytes).
    public static let gif = FormatIndicatedCacheSerializer(imageFormat: .GIF, compressionQuality: nil)
    /// Stores lossless WebP.
    public static let webp = FormatIndicatedCacheSerializer(fileFormat: .WebP, compressionQuality: 1.0)
    /// Stores lossless AVIF.
    public static let avif = FormatIndicatedCacheSerializer(fileFormat: .AVIF, compressionQuality: 1.0)

    /// Stores JPEG at `compressionQuality` (0…1).
    public static func jpeg(compressionQuality: CGFloat) -> FormatIndicatedCacheSerializer {
        FormatIndicatedCacheSerializer(imageFormat: .JPEG, compressionQuality: compressionQuality)
    }

    /// Stores lossy WebP at `compressionQuality` (0…1; 1.0 is lossless).
    public static func webp(compressionQuality: CGFloat) -> FormatIndicatedCacheSerializer {
        FormatIndicatedCacheSerializer(fileFormat: .WebP, compressionQuality: compressionQuality)
    }

    /// Stores lossy AVIF at `compressionQuality` (0…1; 1.0 is lossless).
    public static func avif(compressionQuality: CGFloat) -> FormatIndicatedCacheSerializer {
        FormatIndicatedCacheSerializer(fileFormat: .AVIF, compressionQuality: compressionQuality)
    }

    /// The format images are stored in.
    public let fileFormat: ImageFileFormat
    /// Kingfisher's view of ``fileFormat`` (`unknown` for WebP and AVIF).
    public var imageFormat: ImageFormat { ImageFormat(fileFormat) }
    /// Quality for JPEG, WebP and AVIF; `nil` means 1.0.
    public let compressionQuality: CGFloat?

    /// Creates a serializer for `imageFormat`; `compressionQuality` (0…1) applies to JPEG,
    /// `nil` meaning 1.0.
    public init(imageFormat: ImageFormat, compressionQuality: CGFloat?) {
        self.init(fileFormat: ImageFileFormat(imageFormat), compressionQuality: compressionQuality)
    }

    /// Creates a serializer for any format this library encodes (`ImageFileFormat/isEncodable`);
    /// `compressionQuality` (0…1) applies to JPEG, WebP and AVIF, `nil` meaning 1.0.
    public init(fileFormat: ImageFileFormat, compressionQuality: CGFloat?) {
        self.fileFormat = fileFormat
        self.compressionQuality = compressionQuality
    }

    private func encode(_ image: KFCrossPlatformImage, as format: ImageFileFormat) -> Data? {
        guard format.isEncodable else { return nil }
        return image.kf.data(fileFormat: format, compressionQuality: compressionQuality ?? 1.0)
    }

    /// The image in ``imageFormat``; if that fails, in the original data's format; then the
    /// original bytes; then PNG.
    public func data(with image: KFCrossPlatformImage, original: Data?) -> Data? {
        if let data = encode(image, as: fileFormat) { return data }
        let originalFormat = original?.kf.imageFileFormat ?? .unknown
        if originalFormat != fileFormat, let data = encode(image, as: originalFormat) { return data }
        return original ?? image.kf.pngRepresentation()
    }
}
