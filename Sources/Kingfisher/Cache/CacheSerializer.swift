// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Turns images into data for the disk cache and back, as Kingfisher's `CacheSerializer`.
public protocol CacheSerializer: Sendable {
    /// The data to store for `image`; `original` is the data it was downloaded as, if known.
    /// `nil` means the image cannot be serialized.
    func data(with image: KFCrossPlatformImage, original: Data?) -> Data?

    /// The image stored as `data`, or `nil` when it cannot be decoded.
    func image(with data: Data, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage?

    /// Whether the serializer stores the original data rather than a re-encoding of the image,
    /// in which case a processor must run again on what it reads. Default `false`.
    var originalDataUsed: Bool { get }
}

extension CacheSerializer {
    /// Default `false`.
    public var originalDataUsed: Bool { false }

    /// Decodes with ``KingfisherParsedOptionsInfo/imageCreatingOptions``.
    public func image(with data: Data, options: KingfisherParsedOptionsInfo) -> KFCrossPlatformImage? {
        KingfisherWrapper<KFCrossPlatformImage>.image(data: data, options: options.imageCreatingOptions)
    }
}
