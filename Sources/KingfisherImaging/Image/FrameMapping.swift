// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension KingfisherImage {
    /// The pixel size of `points` at this image's scale, each side within 1...Int32.max.
    func pixelSize(of points: CGSize) -> (width: Int, height: Int) {
        ((points.width * scale).pixelLength(), (points.height * scale).pixelLength())
    }

    /// A processed image: every frame transformed by `transform` into `width` x `height` pixels,
    /// durations, loop count, scale and format kept, no original data. Frames held in memory are
    /// transformed now; frames decoded on demand are transformed when they are asked for.
    /// `convertingToSRGB` says the transform brings the pixels to sRGB: the result has no
    /// colour profile.
    func mappingFrames(
        width: Int, height: Int, hasAlpha: Bool? = nil, convertingToSRGB: Bool = false,
        _ transform: @escaping @Sendable ([UInt8]) -> [UInt8]
    ) -> KingfisherImage {
        let first = ImageFrame(pixels: transform(pixels), duration: frameSource.duration(at: 0))
        let source: any AnimationFrames
        if let stored = frameSource as? StoredFrames {
            source = StoredFrames(
                frames: [first]
                    + stored.frames.dropFirst().map {
                        ImageFrame(pixels: transform($0.pixels), duration: $0.duration)
                    })
        } else {
            source = MappedFrames(frameSource, first: first.pixels, transform: transform)
        }
        return KingfisherImage(
            width: width, height: height, firstFrame: first, source: source, scale: scale,
            loopCount: loopCount, format: format, originalData: nil,
            hasAlpha: hasAlpha ?? self.hasAlpha, exifOrientation: exifOrientation,
            colorProfile: convertingToSRGB ? nil : colorProfile)
    }
}
