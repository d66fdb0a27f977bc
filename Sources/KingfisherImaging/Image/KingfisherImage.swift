import Foundation

/// The platform image type. On Apple platforms Kingfisher uses `UIImage` / `NSImage`; on Linux it
/// is this library's own immutable ``KingfisherImage``.
public typealias KFCrossPlatformImage = KingfisherImage

/// One frame of an image: pixel storage and how long it is shown.
public struct ImageFrame: Sendable {
    /// The frame's pixels: `pixelWidth * pixelHeight` pixels, row by row from the top, 4 bytes per
    /// pixel in R, G, B, A order, alpha **not** premultiplied, no row padding.
    public let pixels: [UInt8]
    /// How long the frame is shown, in seconds. 0 for a still image.
    public let duration: TimeInterval

    /// Creates a frame. `pixels.count` must be `4 * width * height` of the image it belongs to.
    public init(pixels: [UInt8], duration: TimeInterval = 0) {
        self.pixels = pixels
        self.duration = duration
    }
}

/// An immutable, `Sendable` bitmap image: what ``KFCrossPlatformImage`` names on Linux.
///
/// Pixels are 8-bit RGBA with **straight (non-premultiplied) alpha**, stored top row first with
/// no padding (see ``ImageFrame/pixels``). Decoders apply the EXIF orientation, so the pixels are
/// always upright; ``exifOrientation`` keeps what the source said.
///
/// An animated image holds every frame fully composited on the canvas, each with its duration,
/// plus ``loopCount``. A still image has exactly one frame.
///
/// Like `UIImage`, an image has a ``scale``: its ``size`` in points is the pixel size divided by
/// the scale.
public final class KingfisherImage: Sendable {
    /// Width in pixels.
    public let pixelWidth: Int
    /// Height in pixels.
    public let pixelHeight: Int
    /// Pixels per point. ``size`` = pixel size / scale. Default 1.
    public let scale: CGFloat
    /// The frames; never empty. A still image has one frame.
    public let frames: [ImageFrame]
    /// How many times an animation plays: 0 means forever. For GIF this is the NETSCAPE2.0 loop
    /// value as stored (a GIF without that extension reports 1); for WebP the ANIM loop count.
    /// 0 for a still image.
    public let loopCount: Int
    /// The format the image was decoded from; `unknown` for an image made from pixels.
    public let format: ImageFileFormat
    /// The bytes the image was decoded from, when it was decoded from data, so that an unmodified
    /// image (notably a GIF) can be served again byte for byte. `nil` for processed images.
    public let originalData: Data?
    /// Whether the pixels may be non-opaque (the source format carried an alpha channel or a
    /// transparent colour). `false` guarantees every alpha byte is 255.
    public let hasAlpha: Bool
    /// The EXIF orientation (1-8) the source declared; already applied to the pixels. 1 when absent.
    public let exifOrientation: Int
    /// The colour space of the pixels when it is not sRGB: set only when the image was decoded
    /// with ``ImageCreatingOptions/preserveColorProfile`` from a file with a profile; `nil`
    /// means sRGB. Processors keep it, and encoders embed it.
    public let colorProfile: ColorProfile?

    /// Creates an image from frames of RGBA pixels (see ``ImageFrame/pixels`` for the layout).
    ///
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - frames: At least one frame, each holding `width * height * 4` bytes.
    ///   - scale: Pixels per point. Default 1.
    ///   - loopCount: Animation loop count, 0 = forever. Default 0.
    ///   - format: The source format. Default `.unknown`.
    ///   - originalData: The encoded bytes the image came from, if any. Default `nil`.
    ///   - hasAlpha: Whether any pixel may be non-opaque. Default `true`.
    ///   - exifOrientation: The source's EXIF orientation, already applied. Default 1.
    ///   - colorProfile: The pixels' colour space when not sRGB. Default `nil` (sRGB).
    public init(
        width: Int,
        height: Int,
        frames: [ImageFrame],
        scale: CGFloat = 1,
        loopCount: Int = 0,
        format: ImageFileFormat = .unknown,
        originalData: Data? = nil,
        hasAlpha: Bool = true,
        exifOrientation: Int = 1,
        colorProfile: ColorProfile? = nil
    ) {
        precondition(width > 0 && height > 0, "An image needs a positive pixel size.")
        precondition(!frames.isEmpty, "An image needs at least one frame.")
        precondition(frames.allSatisfy { $0.pixels.count == width * height * 4 },
                     "Every frame must hold width * height * 4 bytes.")
        self.pixelWidth = width
        self.pixelHeight = height
        self.frames = frames
        self.scale = scale > 0 ? scale : 1
        self.loopCount = loopCount
        self.format = format
        self.originalData = originalData
        self.hasAlpha = hasAlpha
        self.exifOrientation = exifOrientation
        self.colorProfile = colorProfile
    }

    /// Creates a still image from one buffer of RGBA pixels (straight alpha).
    public convenience init(width: Int, height: Int, pixels: [UInt8], scale: CGFloat = 1, hasAlpha: Bool = true) {
        self.init(width: width, height: height, frames: [ImageFrame(pixels: pixels)], scale: scale, hasAlpha: hasAlpha)
    }

    /// The first frame's pixels (see ``ImageFrame/pixels`` for the layout).
    public var pixels: [UInt8] { frames[0].pixels }

    /// The size in points: pixel size divided by ``scale``.
    public var size: CGSize {
        CGSize(width: CGFloat(pixelWidth) / scale, height: CGFloat(pixelHeight) / scale)
    }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frames.count > 1 }

    /// Total duration of one loop of the animation in seconds (sum of frame durations).
    public var duration: TimeInterval { frames.reduce(0) { $0 + $1.duration } }

    /// Memory cost in bytes: the pixel storage of all frames held.
    public var cost: Int { pixelWidth * pixelHeight * 4 * frames.count }

    /// Returns a copy of this image with a different ``scale``, sharing the pixel storage.
    public func withScale(_ newScale: CGFloat) -> KingfisherImage {
        KingfisherImage(width: pixelWidth, height: pixelHeight, frames: frames, scale: newScale,
                        loopCount: loopCount, format: format, originalData: originalData,
                        hasAlpha: hasAlpha, exifOrientation: exifOrientation, colorProfile: colorProfile)
    }
}

extension KingfisherImage: KingfisherCompatible {}
