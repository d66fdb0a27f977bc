// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The default serializer, as Kingfisher's: the image is stored in the format of its original
/// data when this library encodes it (else GIF for an image decoded from a GIF, else PNG), re-encoded unless
/// ``preferCacheOriginalData`` is set, in which case the original bytes are stored as they came.
public struct DefaultCacheSerializer: CacheSerializer {
    /// The shared default instance.
    public static let `default` = DefaultCacheSerializer()

    /// Quality for lossy formats (JPEG, WebP), 0…1. Default 1.0 (WebP at 1.0 is lossless).
    public var compressionQuality: CGFloat = 1.0

    /// Store the original data as it came when there is any, instead of re-encoding the image.
    /// Default `false`.
    public var preferCacheOriginalData: Bool = false

    /// Equals ``preferCacheOriginalData``.
    public var originalDataUsed: Bool { preferCacheOriginalData }

    /// Creates a serializer with the defaults above.
    public init() {}

    /// The original bytes when ``preferCacheOriginalData`` is set and there are any; otherwise
    /// the image encoded in the original's format (GIF for an image decoded from a GIF, PNG
    /// when nothing is known) at ``compressionQuality``. `nil` when encoding fails.
    public func data(with image: KFCrossPlatformImage, original: Data?) -> Data? {
        if preferCacheOriginalData, let original { return original }
        let format =
            original?.kf.imageFileFormat
            ?? (image.format == .GIF && image.originalData != nil ? .GIF : .unknown)
        return image.kf.data(fileFormat: format.isEncodable ? format : .unknown, compressionQuality: compressionQuality)
    }
}
