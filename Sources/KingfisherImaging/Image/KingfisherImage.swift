// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

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
/// An animated image has ``frameCount`` frames, each fully composited on the canvas, with its
/// duration, plus ``loopCount``. A decoded animation keeps its encoded data and decodes frames
/// when they are asked for (``frame(at:)``), holding a bounded window of them, as Kingfisher's
/// `ImageFrameSource` does; ``ImageCreatingOptions/preloadAll`` decodes every frame up front
/// instead. Processors applied to such an image process each frame as it is asked for, and the
/// encoders read frames one at a time, so converting a long animation never holds all of it.
/// A still image has exactly one frame.
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
    /// The options the image was decoded with (`nil` for an image made from pixels): a cached
    /// animation asked for with other options is decoded again from ``originalData``, as
    /// Kingfisher does.
    package let creatingOptions: ImageCreatingOptions?
    /// The first frame, always held: a still image's pixels, an animation's poster frame.
    private let firstFrame: ImageFrame
    /// Where every frame comes from (the first included).
    let frameSource: any AnimationFrames

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
    public convenience init(
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
        precondition(!frames.isEmpty, "An image needs at least one frame.")
        precondition(
            frames.allSatisfy { $0.pixels.count == width * height * 4 },
            "Every frame must hold width * height * 4 bytes.")
        self.init(
            width: width, height: height, firstFrame: frames[0], source: StoredFrames(frames: frames),
            scale: scale, loopCount: loopCount, format: format, originalData: originalData,
            hasAlpha: hasAlpha, exifOrientation: exifOrientation, colorProfile: colorProfile)
    }

    /// Creates an image whose frames come from `source`; `firstFrame` is its frame 0.
    init(
        width: Int, height: Int, firstFrame: ImageFrame, source: any AnimationFrames, scale: CGFloat,
        loopCount: Int, format: ImageFileFormat, originalData: Data?, hasAlpha: Bool,
        exifOrientation: Int, colorProfile: ColorProfile?, creatingOptions: ImageCreatingOptions? = nil
    ) {
        precondition(width > 0 && height > 0, "An image needs a positive pixel size.")
        precondition(firstFrame.pixels.count == width * height * 4, "A frame must hold width * height * 4 bytes.")
        self.pixelWidth = width
        self.pixelHeight = height
        self.firstFrame = firstFrame
        self.frameSource = source
        self.scale = scale > 0 ? scale : 1
        self.loopCount = loopCount
        self.format = format
        self.originalData = originalData
        self.hasAlpha = hasAlpha
        self.exifOrientation = exifOrientation
        self.colorProfile = colorProfile
        self.creatingOptions = creatingOptions
    }

    /// Creates a still image from one buffer of RGBA pixels (straight alpha).
    public convenience init(width: Int, height: Int, pixels: [UInt8], scale: CGFloat = 1, hasAlpha: Bool = true) {
        self.init(width: width, height: height, frames: [ImageFrame(pixels: pixels)], scale: scale, hasAlpha: hasAlpha)
    }

    /// The first frame's pixels (see ``ImageFrame/pixels`` for the layout).
    public var pixels: [UInt8] { firstFrame.pixels }

    /// The size in points: pixel size divided by ``scale``.
    public var size: CGSize {
        CGSize(width: CGFloat(pixelWidth) / scale, height: CGFloat(pixelHeight) / scale)
    }

    /// The number of frames: 1 for a still image. Known without decoding any frame.
    public var frameCount: Int { frameSource.count }

    /// How long frame `index` (0 ..< ``frameCount``) is shown, in seconds; 0 for a still image.
    public func frameDuration(at index: Int) -> TimeInterval {
        frameSource.duration(at: index)
    }

    /// Frame `index` (0 ..< ``frameCount``), decoded now if it is not held. Reading frames in
    /// order is the fast way: going back restarts the decoder from the first frame.
    ///
    /// - Throws: ``ImageCodingError`` when the frame cannot be decoded (an animation damaged
    ///   after its first frame is found out only here).
    public func frame(at index: Int) throws -> ImageFrame {
        precondition(index >= 0 && index < frameCount, "frame index \(index) out of 0..<\(frameCount)")
        if index == 0 { return firstFrame }
        return ImageFrame(pixels: try frameSource.pixels(at: index), duration: frameSource.duration(at: index))
    }

    /// Every frame, decoded now: for an animation decoded on demand this holds all of it at
    /// once, which ``frame(at:)`` avoids. A frame that cannot be decoded repeats the one before
    /// it, as browsers keep showing the last good frame.
    public var frames: [ImageFrame] {
        var frames = [firstFrame]
        frames.reserveCapacity(frameCount)
        for index in 1..<max(1, frameCount) {
            let pixels = (try? frameSource.pixels(at: index)) ?? frames[index - 1].pixels
            frames.append(ImageFrame(pixels: pixels, duration: frameSource.duration(at: index)))
        }
        return frames
    }

    /// How many frames a processed copy would hold in memory at once: all of them when this
    /// image holds them, one when its frames are decoded on demand (what output limits count).
    var heldFrameCount: Int { frameSource is StoredFrames ? frameCount : 1 }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// Total duration of one loop of the animation in seconds (sum of frame durations).
    public var duration: TimeInterval { (0..<frameCount).reduce(0) { $0 + frameSource.duration(at: $1) } }

    /// Memory cost in bytes: the decoded pixels held right now (every frame of an image held in
    /// memory; the first frame and the decoded window of an animation decoded on demand) plus
    /// the encoded data such an animation keeps to decode from.
    public var cost: Int {
        frameSource is StoredFrames ? frameSource.heldByteCount : firstFrame.pixels.count + frameSource.heldByteCount
    }

    /// Returns a copy of this image with a different ``scale``, sharing the pixel storage.
    public func withScale(_ newScale: CGFloat) -> KingfisherImage {
        KingfisherImage(
            width: pixelWidth, height: pixelHeight, firstFrame: firstFrame, source: frameSource,
            scale: newScale, loopCount: loopCount, format: format, originalData: originalData,
            hasAlpha: hasAlpha, exifOrientation: exifOrientation, colorProfile: colorProfile,
            creatingOptions: creatingOptions.map {
                var options = $0
                options.scale = newScale
                return options
            })
    }
}

extension KingfisherImage: KingfisherCompatible {}
