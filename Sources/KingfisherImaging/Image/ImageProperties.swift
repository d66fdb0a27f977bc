// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What an image file's headers say about it, read without decoding a pixel (as ImageIO's
/// `CGImageSourceCopyPropertiesAtIndex`): its format, upright size, frames and their
/// durations, loop count, alpha, EXIF orientation and colour space. `kf info` prints these.
///
/// Reading them costs a walk over the file's headers (an animation's frame headers included),
/// in about a millisecond and without memory for pixels; the values are those a decode of the
/// same data reports, except that ``hasAlpha`` says whether the file can hold transparency
/// (it may, while every pixel of a TIFF read through libtiff's RGBA path happens to be opaque).
public struct ImageProperties: Sendable, Equatable {
    /// The file's format.
    public var format: ImageFileFormat
    /// The width in pixels, upright (after EXIF orientation), as a decode gives it.
    public var pixelWidth: Int
    /// The height in pixels, upright.
    public var pixelHeight: Int
    /// Each frame's duration in seconds; a still image has one frame of 0 seconds.
    public var frameDurations: [TimeInterval]
    /// How many times an animation plays; 0 means forever.
    public var loopCount: Int
    /// Whether the file can hold transparent pixels.
    public var hasAlpha: Bool
    /// The EXIF orientation, 1 (up) to 8; 1 when the file has none.
    public var exifOrientation: Int
    /// The ICC profile the file embeds, `nil` when it has none (or one LittleCMS cannot read).
    public var colorProfile: ColorProfile?
    /// The colour space the file declares, in words: "sRGB" (also when it declares none), the
    /// embedded profile's name, ITU-T H.273 code points, or a PNG gamma.
    public var colorSpace: String

    /// The number of frames.
    public var frameCount: Int { frameDurations.count }

    /// Reads the properties of `data` from its headers. A format registered without a header
    /// reader (an application's own) is decoded to find them.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The limits of ``ImageCreatingOptions`` apply as to a decode (default: the
    ///     defaults): a header over ``ImageCreatingOptions/maxPixelCount`` is refused.
    /// - Throws: ``ImageCodingError``, as a decode would for the same headers.
    public init(data: Data, options: ImageCreatingOptions = ImageCreatingOptions()) throws {
        guard !data.isEmpty else { throw ImageCodingError.emptyData }
        let format = data.kf.imageFileFormat
        guard let descriptor = ImageFormatRegistry.shared.descriptor(for: format), descriptor.canDecode else {
            throw ImageCodingError.unknownFormat(description: ImageDecoder.describeContent(data))
        }
        self.format = format
        guard let readHeader = descriptor.header else {
            var decoding = options
            decoding.preserveColorProfile = true
            let image = try KingfisherImage.decode(data: data, options: decoding)
            pixelWidth = image.pixelWidth
            pixelHeight = image.pixelHeight
            frameDurations = (0..<image.frameCount).map(image.frameDuration(at:))
            loopCount = image.loopCount
            hasAlpha = image.hasAlpha
            exifOrientation = image.exifOrientation
            colorProfile = image.colorProfile
            colorSpace = image.colorProfile?.description ?? "sRGB"
            return
        }
        let header = try readHeader(data, options)
        pixelWidth = header.width
        pixelHeight = header.height
        frameDurations = header.durations
        loopCount = header.loopCount
        hasAlpha = header.hasAlpha
        exifOrientation = header.orientation.rawValue
        switch header.colorSpace {
        case .sRGB:
            colorSpace = "sRGB"
        case .icc(let bytes):
            colorProfile = ColorProfile(iccData: bytes)
            colorSpace = colorProfile?.description ?? "an unreadable ICC profile (\(bytes.count) bytes)"
        case .cicp(let primaries, let transfer):
            colorSpace = "ITU-T H.273 primaries \(primaries), transfer \(transfer)"
        case .calibrated(let gamma, let chromaticities):
            colorSpace = "gamma \(String(format: "%.5f", gamma))\(chromaticities == nil ? "" : " with chromaticities")"
        }
    }
}
