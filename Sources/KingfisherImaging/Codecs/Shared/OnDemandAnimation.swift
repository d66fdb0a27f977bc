// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Reads an animation's frames in order, each composited on the canvas (GIF, WebP, APNG).
protocol AnimationFrameReader: AnyObject {
    /// The next frame as the whole canvas (RGBA8), or `nil` after the last one.
    func nextFrame() throws -> [UInt8]?
}

/// What a codec leaves to be decoded when asked: how to read the canvas frames from the start,
/// their durations, and how a canvas frame becomes an output frame (the codec's reduction and
/// orientation; ``ImageDecoder`` adds the colour conversion).
struct OnDemandAnimation {
    var durations: [TimeInterval]
    var finish: @Sendable ([UInt8]) -> [UInt8]
    var makeReader: @Sendable () throws -> any AnimationFrameReader

    init(
        durations: [TimeInterval], finish: @escaping @Sendable ([UInt8]) -> [UInt8],
        makeReader: @escaping @Sendable () throws -> any AnimationFrameReader
    ) {
        self.durations = durations
        self.finish = finish
        self.makeReader = makeReader
    }
}

extension OnDemandAnimation {
    /// How a `width` x `height` canvas frame becomes an output frame: reduced to
    /// `decodingTarget`'s size (Lanczos-3), then turned upright; and the output frame's size.
    static func finishing(
        width: Int, height: Int, target decodingTarget: DecodingTarget?, orientation: ImageOrientation, hasAlpha: Bool
    ) -> (finish: @Sendable ([UInt8]) -> [UInt8], width: Int, height: Int) {
        let target =
            decodingTarget?.fit(storedWidth: width, height: height, orientation: orientation)
            ?? (width: width, height: height)
        let finish: @Sendable ([UInt8]) -> [UInt8] = { canvas in
            let reduced =
                target == (width, height)
                ? canvas
                : Resampler.resize(canvas, width: width, height: height, to: target.width, target.height, hasAlpha: hasAlpha)
            return orientation == .up ? reduced : orientation.apply(to: reduced, width: target.width, height: target.height).pixels
        }
        return orientation.swapsDimensions ? (finish, target.height, target.width) : (finish, target.width, target.height)
    }

    /// The decoded image of an animation of `durations.count` frames read by `makeReader`:
    /// every frame decoded now when `preloadAll` (after checking that they fit the decoded-bytes
    /// limit) or when there is only one, else the first frame now and the rest on demand.
    static func decodedImage(
        canvasWidth: Int, canvasHeight: Int, durations: [TimeInterval], loopCount: Int, hasAlpha: Bool,
        orientation: ImageOrientation, target: DecodingTarget?, preloadAll: Bool, limits: DecodingLimits,
        makeReader: @escaping @Sendable () throws -> any AnimationFrameReader
    ) throws -> DecodedImage {
        let onDemand = durations.count > 1 && !preloadAll
        if !onDemand {
            try limits.checkHeldBytes(width: canvasWidth, height: canvasHeight, frameCount: durations.count)
        }
        let (finish, width, height) = finishing(
            width: canvasWidth, height: canvasHeight, target: target,
            orientation: orientation, hasAlpha: hasAlpha)
        let reader = try makeReader()
        var frames: [ImageFrame] = []
        for duration in durations.prefix(onDemand ? 1 : durations.count) {
            guard let canvas = try reader.nextFrame() else { break }
            frames.append(ImageFrame(pixels: finish(canvas), duration: duration))
        }
        guard !frames.isEmpty else {
            throw ImageCodingError.corruptedData(format: limits.format, detail: "the animation has no frames")
        }
        var image = DecodedImage(
            width: width, height: height, frames: frames,
            loopCount: durations.count > 1 ? loopCount : 0, hasAlpha: hasAlpha, orientation: orientation)
        if onDemand {
            image.onDemand = OnDemandAnimation(durations: durations, finish: finish, makeReader: makeReader)
        }
        return image
    }
}
