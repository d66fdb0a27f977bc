// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// What an image file is, for an image service's `/info` (imgproxy's `/info`, thumbor's
/// `/meta`): its format, size, frames, alpha, orientation and colour space from the headers,
/// what its EXIF says of the camera, and from a small decode, its dominant colour and a BlurHash.
public struct ImageInfo: Sendable, Equatable, Codable {
    /// The format's usual extension (`jpg`, `png`).
    public var format: String
    /// The upright width in pixels.
    public var width: Int
    /// The upright height in pixels.
    public var height: Int
    /// How many frames: 1 for a still image.
    public var frames: Int
    /// Each frame's duration in seconds; empty for a still image.
    public var durations: [Double]
    /// Whether it may have transparency.
    public var alpha: Bool
    /// The EXIF orientation, 1…8.
    public var orientation: Int
    /// The colour space it is in (`sRGB`, or the embedded profile's description).
    public var colorProfile: String
    /// The camera, date and exposure; `nil` without EXIF.
    public var exif: EXIFSummary?
    /// The dominant colour, `#RRGGBB`; `nil` when every pixel is transparent.
    public var dominantColor: String?
    /// A BlurHash of 4 x 3 components.
    public var blurHash: String

    /// The side of the small decode the colours are read from: 32 pixels.
    public static let sampleSize = 32

    /// The information of an image file, within `options`' limits; the EXIF position only with
    /// `includingGPS` (default `false`).
    ///
    /// - Throws: ``ImageCodingError`` when the file cannot be read or decoded.
    public init(data: Data, options: ImageCreatingOptions = ImageCreatingOptions(), includingGPS: Bool = false) throws {
        let sample = try ImageDecoder.decode(data, options: options, target: .longestSide(Self.sampleSize))
        try self.init(data: data, sample: sample, options: options, includingGPS: includingGPS)
    }

    /// The information of an image file whose small decode (``sampleSize`` on its longest side,
    /// as a `DownsamplingImageProcessor` of that size makes) the caller has already: the colours
    /// are read from `sample`, the rest from `data`'s headers.
    ///
    /// - Throws: ``ImageCodingError`` when the file's headers cannot be read.
    public init(
        data: Data, sample: KingfisherImage, options: ImageCreatingOptions = ImageCreatingOptions(), includingGPS: Bool = false
    )
        throws
    {
        let properties = try ImageProperties(data: data, options: options)
        format = properties.format.descriptor?.fileExtensions.first ?? "\(properties.format)"
        width = properties.pixelWidth
        height = properties.pixelHeight
        frames = properties.frameCount
        durations = properties.frameCount > 1 ? properties.frameDurations : []
        alpha = properties.hasAlpha
        orientation = properties.exifOrientation
        colorProfile = properties.colorSpace
        exif = EXIFSummary(data: data, includingGPS: includingGPS, maxByteCount: options.maxEXIFByteCount)
        dominantColor = DominantColour.of(sample.pixels).map { String(format: "#%02X%02X%02X", $0.r, $0.g, $0.b) }
        blurHash = BlurHash.encode(sample.pixels, width: sample.pixelWidth, height: sample.pixelHeight)
    }
}
