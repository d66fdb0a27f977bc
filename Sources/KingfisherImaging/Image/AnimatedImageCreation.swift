// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KingfisherWrapper where Base: KingfisherImage {
    /// The number of frames of an image decoded from an animation format (always for a GIF,
    /// else when it has more than one frame), as Kingfisher's; `nil` for a still image.
    public var imageFrameCount: Int? {
        base.isAnimated || base.format == .GIF ? base.frameCount : nil
    }

    /// The image's frames as an ``ImageFrameSource`` when it is animated; `nil` for a still image.
    public var frameSource: (any ImageFrameSource)? {
        base.isAnimated ? KingfisherImageFrames(image: base) : nil
    }

    /// Kingfisher copies the animation state it keeps beside an image to another image. Here
    /// that state is part of the image itself (``KingfisherImage/originalData``, its frames), and
    /// images are immutable, so there is nothing to copy: a processor's result keeps what it
    /// should by being made from the image.
    public func copyKingfisherState(to target: KFCrossPlatformImage) {}

    /// An image from data in any animated (or still) format this library reads: GIF, APNG,
    /// WebP, AVIF and the rest, frames decoded on demand unless `options.preloadAll`. `nil` when
    /// the data cannot be decoded; ``KingfisherImage/decode(data:options:)`` says why.
    public static func animatedImage(data: Data, options: ImageCreatingOptions) -> KFCrossPlatformImage? {
        try? ImageDecoder.decode(data, options: options)
    }

    /// An animated image whose frames come from `source`: each asked for when needed, or all at
    /// once with `options.preloadAll`; only the first with `options.onlyFirstFrame`. Its size is
    /// the first frame's (or `baseImage`'s, which then stands as the first frame), and frames of
    /// another size are refused when asked for. `nil` when the first frame cannot be made.
    public static func animatedImage(
        source: any ImageFrameSource, options: ImageCreatingOptions,
        baseImage: KFCrossPlatformImage? = nil
    ) -> KFCrossPlatformImage? {
        guard let first = baseImage ?? source.frame(at: 0), source.frameCount > 0 else { return nil }
        let firstFrame = ImageFrame(pixels: first.pixels, duration: source.duration(at: 0))
        let format = source.data?.kf.imageFileFormat ?? .unknown
        if options.onlyFirstFrame || source.frameCount == 1 {
            return KingfisherImage(
                width: first.pixelWidth, height: first.pixelHeight, frames: [firstFrame], scale: options.scale,
                format: format, originalData: source.data, hasAlpha: first.hasAlpha,
                colorProfile: first.colorProfile)
        }
        let frames = FrameSourceFrames(source: source, width: first.pixelWidth, height: first.pixelHeight)
        let held: any AnimationFrames
        if options.preloadAll {
            var all = [firstFrame]
            for index in 1..<source.frameCount {
                guard let pixels = try? frames.pixels(at: index) else { return nil }
                all.append(ImageFrame(pixels: pixels, duration: source.duration(at: index)))
            }
            held = StoredFrames(frames: all)
        } else {
            held = frames
        }
        return KingfisherImage(
            width: first.pixelWidth, height: first.pixelHeight, firstFrame: firstFrame, source: held,
            scale: options.scale, loopCount: 0, format: format, originalData: source.data,
            hasAlpha: true, exifOrientation: 1, colorProfile: first.colorProfile)
    }
}
