// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KingfisherImage {
    /// Encodes the image as `format`, throwing an ``ImageCodingError`` that says why when it fails.
    ///
    /// - Parameters:
    ///   - format: `.PNG` (alpha kept), `.JPEG` (alpha flattened onto opaque white), `.GIF`
    ///     (the original bytes of an unmodified GIF, else a palette-quantised, animated when the
    ///     image has frames), `.WebP` (animated when the image has frames), `.AVIF` (8-bit, the
    ///     first frame of an animated image; 4:4:4 at qualities of 0.9 and above, else 4:2:0), or
    ///     `.unknown` (PNG). Formats this library only reads (see ``ImageFileFormat/isEncodable``)
    ///     throw `encodingFailed`.
    ///   - compressionQuality: 0…1 for JPEG, lossy WebP and lossy AVIF. Default 1.0.
    ///   - lossless: For WebP and AVIF, encode losslessly and ignore the quality. Default `false`.
    ///
    /// An image with a ``colorProfile`` has it embedded (PNG, JPEG, WebP); in other formats its
    /// pixels are converted to sRGB first.
    public func encoded(as format: ImageFileFormat, compressionQuality: CGFloat = 1.0, lossless: Bool = false) throws -> Data {
        try encoded(as: format, options: ImageEncodingOptions(compressionQuality: compressionQuality, lossless: lossless))
    }

    /// Encodes the image as `format` with `options` (quality, lossless, progressive or
    /// interlaced, effort, EXIF), as ``encoded(as:compressionQuality:lossless:)`` describes; an
    /// encoder of an application's own format takes the quality and `lossless` only.
    public func encoded(as format: ImageFileFormat, options: ImageEncodingOptions) throws -> Data {
        let written = format == .unknown ? ImageFileFormat.PNG : format
        // Formats the profile is not embedded in get the pixels in sRGB, as they are read.
        let image = colorProfile == nil || MetadataEmbedding.embedsProfile(in: written) ? self : convertedToSRGB()
        let pixels = try image.encodedPixels(as: format, options: options)
        return try MetadataEmbedding.embed(icc: image.colorProfile?.iccData, exif: options.exif?.tiff, in: pixels, format: written)
    }

    private func encodedPixels(as format: ImageFileFormat, options: ImageEncodingOptions) throws -> Data {
        let written = format == .unknown ? ImageFileFormat.PNG : format
        guard let descriptor = written.descriptor, let encode = descriptor.encoding else {
            throw ImageCodingError.encodingFailed(format: format, detail: "\(format) encoding is not supported")
        }
        if let limit = descriptor.maxEncodedDimension, max(pixelWidth, pixelHeight) > limit {
            throw ImageCodingError.encodingFailed(
                format: format,
                detail: "\(descriptor.name) holds at most \(limit) pixels a side, and the image is \(pixelWidth)x\(pixelHeight)")
        }
        return try encode(self, options)
    }
}

extension KingfisherWrapper where Base: KingfisherImage {
    /// PNG data of the image (8-bit RGBA, or RGB when every pixel is opaque); `nil` on failure.
    public func pngRepresentation() -> Data? {
        try? base.encoded(as: .PNG)
    }

    /// JPEG data of the image at `compressionQuality` (0…1); alpha is flattened onto opaque
    /// white. `nil` on failure.
    public func jpegRepresentation(compressionQuality: CGFloat) -> Data? {
        try? base.encoded(as: .JPEG, compressionQuality: compressionQuality)
    }

    /// The original bytes of an image decoded from a GIF and not modified since, as Kingfisher's;
    /// `nil` for any other image. To make a GIF of any image (palette-quantised, animated when it
    /// has frames), use ``KingfisherImage/encoded(as:compressionQuality:lossless:)`` with `.GIF`.
    public func gifRepresentation() -> Data? {
        base.format == .GIF ? base.originalData : nil
    }

    /// WebP data, lossy at `compressionQuality` (0…1, default 0.8) or lossless; animated when
    /// the image has frames. `nil` on failure.
    public func webpRepresentation(compressionQuality: CGFloat = 0.8, lossless: Bool = false) -> Data? {
        try? base.encoded(as: .WebP, compressionQuality: compressionQuality, lossless: lossless)
    }

    /// AVIF data, lossy at `compressionQuality` (0…1, default 0.8) or lossless; an animated
    /// image gives its first frame. `nil` on failure.
    public func avifRepresentation(compressionQuality: CGFloat = 0.8, lossless: Bool = false) -> Data? {
        try? base.encoded(as: .AVIF, compressionQuality: compressionQuality, lossless: lossless)
    }

    /// Data of the image in `format`, as Kingfisher's `data(format:compressionQuality:)`:
    /// `.unknown` gives PNG, `.GIF` only an unmodified GIF's own bytes (``gifRepresentation()``).
    /// `nil` on failure.
    public func data(format: ImageFormat, compressionQuality: CGFloat = 1.0) -> Data? {
        if format == .GIF { return gifRepresentation() }
        return data(fileFormat: ImageFileFormat(format), compressionQuality: compressionQuality)
    }

    /// Data of the image in any format this library encodes: `.unknown` gives PNG; for WebP and
    /// AVIF, a quality of 1.0 (the default) means lossless. `nil` on failure.
    public func data(fileFormat: ImageFileFormat, compressionQuality: CGFloat = 1.0) -> Data? {
        try? base.encoded(
            as: fileFormat, compressionQuality: compressionQuality,
            lossless: [.WebP, .AVIF].contains(fileFormat) && compressionQuality >= 1.0)
    }
}
