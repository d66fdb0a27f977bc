// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Options for creating an image from data, as Kingfisher's `ImageCreatingOptions`, plus the
/// limits that protect against decompression bombs and other hostile files.
public struct ImageCreatingOptions: Sendable, Equatable {
    /// The default pixel limit: 100 megapixels (400 MB of RGBA) per frame.
    public static let defaultMaxPixelCount = 100_000_000
    /// The default limit on decoded frames held at once: 400 MiB (100 megapixels of RGBA).
    public static let defaultMaxDecodedByteCount = 400 << 20
    /// The default frame limit: 5 000 frames (over three minutes at 25 frames a second).
    public static let defaultMaxFrameCount = 5_000
    /// The default EXIF limit: 1 MiB (a JPEG's EXIF segment holds at most 64 KiB).
    public static let defaultMaxEXIFByteCount = 1 << 20
    /// The default limit on an SVG document: 10 MiB.
    public static let defaultMaxSVGByteCount = 10 << 20
    /// The default time an SVG may take to render: 5 seconds.
    public static let defaultMaxSVGRenderingTime: TimeInterval = 5

    /// The scale of the created image. Default 1.
    public var scale: CGFloat
    /// Kingfisher's fixed animation duration override, in seconds; 0 keeps the frames' own. Default 0.
    public var duration: TimeInterval
    /// Whether all frames of an animation are decoded up front, as Kingfisher's
    /// `preloadAllAnimationData`. When `false`, an animation keeps its encoded data and decodes
    /// frames when they are asked for (``KingfisherImage/frame(at:)``), holding a window of
    /// them. Default `false`.
    public var preloadAll: Bool
    /// Whether only the first frame of an animated image is loaded. Default `false`.
    public var onlyFirstFrame: Bool
    /// The largest canvas (width x height pixels, per frame) a decoder accepts. Images over it
    /// are refused from their header, before any pixel buffer is allocated.
    /// Default ``defaultMaxPixelCount`` (100 000 000).
    public var maxPixelCount: Int
    /// The most frames an animated image may have; more are refused with `tooManyFrames` (from
    /// the header for WebP, when the next frame starts for GIF) however small they are.
    /// Default ``defaultMaxFrameCount`` (5 000).
    public var maxFrameCount: Int
    /// The most bytes of decoded frames an image may hold at once: an animation decoded up front
    /// (``preloadAll``) over it is refused from its header; one decoded on demand holds fewer
    /// frames in its window. Default ``defaultMaxDecodedByteCount`` (400 MiB).
    public var maxDecodedByteCount: Int
    /// The largest EXIF block read (for the orientation); a larger one is ignored, leaving the
    /// image as stored. Default ``defaultMaxEXIFByteCount`` (1 MiB).
    public var maxEXIFByteCount: Int
    /// The largest SVG document parsed; a larger one is refused with `overLimit` before
    /// parsing. Default ``defaultMaxSVGByteCount`` (10 MiB).
    public var maxSVGByteCount: Int
    /// How long rendering an SVG may take, in seconds; a render still running then is refused
    /// with `overLimit`. librsvg cannot be stopped mid-render: the abandoned render finishes on
    /// its own thread with processor time nothing else wants. Default
    /// ``defaultMaxSVGRenderingTime`` (5 s).
    public var maxSVGRenderingTime: TimeInterval
    /// Whether decoded pixels stay in the colour space the file declares (its ICC profile, or
    /// the one its colour chunks describe), carried in ``KingfisherImage/colorProfile`` and
    /// embedded by the encoders. When `false`, pixels are converted to sRGB and the image
    /// carries no profile: what browsers show, and what every processor assumes. CMYK JPEGs are
    /// converted either way. Default `false`.
    public var preserveColorProfile: Bool
    /// The largest output (width x height pixels, frames held at once counted) a processor may
    /// make; `nil`: ``maxPixelCount``. Default `nil`.
    public var maxOutputPixelCount: Int?
    /// The share of a ``PixelMemoryBudget`` decoders and processors charge before they allocate
    /// pixels; `nil`: none, only the limits above apply. Default `nil`.
    public var pixelMemory: PixelMemoryBudget.Account?

    /// Creates options; every parameter defaults as documented on its property.
    public init(
        scale: CGFloat = 1.0,
        duration: TimeInterval = 0.0,
        preloadAll: Bool = false,
        onlyFirstFrame: Bool = false,
        maxPixelCount: Int = ImageCreatingOptions.defaultMaxPixelCount,
        maxFrameCount: Int = ImageCreatingOptions.defaultMaxFrameCount,
        maxEXIFByteCount: Int = ImageCreatingOptions.defaultMaxEXIFByteCount,
        maxDecodedByteCount: Int = ImageCreatingOptions.defaultMaxDecodedByteCount,
        maxSVGByteCount: Int = ImageCreatingOptions.defaultMaxSVGByteCount,
        maxSVGRenderingTime: TimeInterval = ImageCreatingOptions.defaultMaxSVGRenderingTime,
        preserveColorProfile: Bool = false,
        maxOutputPixelCount: Int? = nil,
        pixelMemory: PixelMemoryBudget.Account? = nil
    ) {
        self.scale = scale
        self.duration = duration
        self.preloadAll = preloadAll
        self.onlyFirstFrame = onlyFirstFrame
        self.maxPixelCount = maxPixelCount
        self.maxFrameCount = maxFrameCount
        self.maxEXIFByteCount = maxEXIFByteCount
        self.maxDecodedByteCount = maxDecodedByteCount
        self.maxSVGByteCount = maxSVGByteCount
        self.maxSVGRenderingTime = maxSVGRenderingTime
        self.preserveColorProfile = preserveColorProfile
        self.maxOutputPixelCount = maxOutputPixelCount
        self.pixelMemory = pixelMemory
    }
}
