// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Picks the decoder from the data's magic bytes and turns its output into a ``KingfisherImage``.
package enum ImageDecoder {
    /// Decodes `data`, straight to `target`'s size when one is given (default `nil`: full size).
    static func decode(_ data: Data, options: ImageCreatingOptions, target: DecodingTarget? = nil) throws -> KingfisherImage {
        try decode(data, as: data.kf.imageFileFormat, options: options, target: target)
    }

    /// Decodes `data` with `format`'s decoder whatever its magic bytes say, its longest side at
    /// most `maxPixelSize` when one is given (default `nil`): the fuzz targets use this to keep
    /// each decoder busy with its own format.
    package static func decode(
        _ data: Data, as format: ImageFileFormat, options: ImageCreatingOptions, maxPixelSize: Int? = nil
    ) throws -> KingfisherImage {
        try decode(data, as: format, options: options, target: maxPixelSize.map { .longestSide($0) })
    }

    static func decode(
        _ data: Data, as format: ImageFileFormat, options: ImageCreatingOptions, target: DecodingTarget?
    ) throws -> KingfisherImage {
        guard !data.isEmpty else { throw ImageCodingError.emptyData }
        guard let decoder = ImageFormatRegistry.shared.descriptor(for: format)?.decoder else {
            throw ImageCodingError.unknownFormat(description: describeContent(data))
        }
        var decoded: DecodedImage
        switch decoder {
        case .native(let decode):
            decoded = try decode(data, options, target)
        case .image(let decode):
            // Another codec's image: whole, then brought to the target's size.
            let image = try decode(data, options)
            guard let target else { return image }
            let fit = target.fit(width: image.pixelWidth, height: image.pixelHeight)
            guard fit != (image.pixelWidth, image.pixelHeight) else { return image }
            return image.resized(toFit: max(fit.width, fit.height))
        }
        let colorProfile = ColorConversion.apply(to: &decoded, preserve: options.preserveColorProfile)
        if options.duration > 0 {
            let frameCount = decoded.onDemand?.durations.count ?? decoded.frames.count
            let each = options.duration / TimeInterval(frameCount)
            if frameCount > 1 {
                decoded.frames = decoded.frames.map { ImageFrame(pixels: $0.pixels, duration: each) }
                decoded.onDemand?.durations = Array(repeating: each, count: frameCount)
            }
        }
        let frames: any AnimationFrames
        if let onDemand = decoded.onDemand {
            frames = FramesDecodedOnDemand(
                onDemand, encodedByteCount: data.count,
                frameByteCount: decoded.width * decoded.height * PixelBuffer.bytesPerPixel,
                maxHeldByteCount: options.maxDecodedByteCount)
        } else {
            frames = StoredFrames(frames: decoded.frames)
        }
        return KingfisherImage(
            width: decoded.width, height: decoded.height, firstFrame: decoded.frames[0], source: frames,
            scale: options.scale, loopCount: decoded.loopCount, format: format,
            originalData: (target?.keepsOriginalData ?? true) ? data : nil,
            hasAlpha: decoded.hasAlpha, exifOrientation: decoded.orientation.rawValue, colorProfile: colorProfile,
            creatingOptions: options)
    }

    /// Says what bytes that are not an image look like, for the error message.
    static func describeContent(_ data: Data) -> String {
        let head = data.prefix(512)
        let text = String(decoding: head, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }.lowercased()
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || trimmed.contains("<body") {
            return "an HTML document"
        }
        if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<svg") {
            return trimmed.contains("<svg") ? "an SVG document" : "an XML document"
        }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return "JSON text" }
        let printable = head.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if printable {
            let sample = String(text.prefix(40)).replacingOccurrences(of: "\n", with: " ")
            return "text (\"\(sample)\")"
        }
        let hex = data.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
        return "binary data starting with \(hex)"
    }
}

extension KingfisherImage {
    /// Decodes an image from data in any format ``ImageFileFormat`` names, upright (EXIF orientation applied),
    /// with every frame of an animation composited.
    ///
    /// - Throws: ``ImageCodingError`` naming the format and what was
    ///   wrong: empty data, bytes that are not an image, a recognised but unsupported format,
    ///   corrupted or truncated data, or a size over ``ImageCreatingOptions/maxPixelCount``
    ///   (checked from the header, before any pixel buffer is allocated).
    public static func decode(data: Data, options: ImageCreatingOptions = ImageCreatingOptions()) throws -> KingfisherImage {
        try ImageDecoder.decode(data, options: options)
    }

    /// Decodes `data` straight to a thumbnail whose longest side is at most `maxPixelSize` pixels
    /// (aspect ratio kept, never enlarged). JPEG is decoded at the smallest DCT scale (1/2, 1/4,
    /// 1/8) that still covers the target and WebP through libwebp's scaled decode, so a large
    /// photo is never held at full size; the result is then resampled exactly (Lanczos-3).
    /// The result carries no ``originalData``.
    ///
    /// - Throws: The same errors as ``decode(data:options:)``.
    public static func downsampled(
        data: Data, maxPixelSize: Int, options: ImageCreatingOptions = ImageCreatingOptions()
    ) throws -> KingfisherImage {
        try ImageDecoder.decode(data, options: options, target: .longestSide(max(1, maxPixelSize)))
    }
}

extension KingfisherWrapper where Base: KingfisherImage {
    /// Creates an image from data, as Kingfisher's `KingfisherWrapper.image(data:options:)`.
    /// Returns `nil` when the data cannot be decoded; ``KingfisherImage/decode(data:options:)``
    /// says why.
    public static func image(data: Data, options: ImageCreatingOptions) -> KFCrossPlatformImage? {
        try? ImageDecoder.decode(data, options: options)
    }

    /// Creates a downsampled image from data, as Kingfisher's `downsampledImage(data:to:scale:)`:
    /// the longest side is at most `max(pointSize.width, pointSize.height) * scale` pixels and the
    /// image's scale is `scale`. A size under one pixel (`.zero`) sets no bound, as ImageIO's
    /// thumbnail size 0 does: the image comes at its own size. Returns `nil` when the data cannot
    /// be decoded.
    public static func downsampledImage(data: Data, to pointSize: CGSize, scale: CGFloat) -> KFCrossPlatformImage? {
        let longestSide = max(pointSize.width, pointSize.height) * scale
        let target: DecodingTarget? = longestSide >= 1 && longestSide.isFinite ? .longestSide(longestSide.pixelLength(.up)) : nil
        return try? ImageDecoder.decode(data, options: ImageCreatingOptions(scale: scale), target: target)
    }
}
