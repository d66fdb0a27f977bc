// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The frames of an animation, made when they are asked for, as Kingfisher's `ImageFrameSource`.
///
/// ``KingfisherWrapper/frameSource`` gives an animated image's own frames this way, and
/// ``KingfisherWrapper/animatedImage(source:options:baseImage:)`` makes an animated image of any
/// conforming type (frames rendered by your code, say), each frame asked for when it is needed.
/// Frames are images here, not `CGImage`s, and sources are `Sendable`.
public protocol ImageFrameSource: Sendable {
    /// The encoded data the frames come from, if any.
    var data: Data? { get }
    /// How many frames there are.
    var frameCount: Int { get }
    /// Frame `index` as a still image, fitting within `maxSize` pixels when given; `nil` when it
    /// cannot be made.
    func frame(at index: Int, maxSize: CGSize?) -> KFCrossPlatformImage?
    /// How long frame `index` is shown, in seconds.
    func duration(at index: Int) -> TimeInterval
    /// A source for another image to use. Default: `self` (sources are values or immutable).
    func copy() -> Self
}

extension ImageFrameSource {
    /// Frame `index` at full size.
    public func frame(at index: Int) -> KFCrossPlatformImage? {
        frame(at: index, maxSize: nil)
    }

    public func copy() -> Self { self }
}

/// An image's own frames, as an ``ImageFrameSource`` (``KingfisherWrapper/frameSource``).
struct KingfisherImageFrames: ImageFrameSource {
    let image: KingfisherImage

    var data: Data? { image.originalData }
    var frameCount: Int { image.frameCount }

    func frame(at index: Int, maxSize: CGSize?) -> KFCrossPlatformImage? {
        guard (0..<image.frameCount).contains(index), let frame = try? image.frame(at: index) else { return nil }
        let still = KingfisherImage(
            width: image.pixelWidth, height: image.pixelHeight, frames: [frame], scale: image.scale,
            hasAlpha: image.hasAlpha, colorProfile: image.colorProfile)
        guard let maxSize else { return still }
        return still.resized(toFit: max(1, Int(max(maxSize.width, maxSize.height))))
    }

    func duration(at index: Int) -> TimeInterval { image.frameDuration(at: index) }
}

/// A user's ``ImageFrameSource`` as the frames of an image: each frame asked for when needed,
/// and refused when it is missing or not the size of the first.
struct FrameSourceFrames: AnimationFrames {
    let source: any ImageFrameSource
    let width: Int
    let height: Int

    var count: Int { source.frameCount }
    func duration(at index: Int) -> TimeInterval { source.duration(at: index) }
    var heldByteCount: Int { 0 }

    func pixels(at index: Int) throws -> [UInt8] {
        guard let frame = source.frame(at: index, maxSize: nil) else {
            throw ImageCodingError.corruptedData(format: .unknown, detail: "the frame source gave no frame \(index)")
        }
        guard frame.pixelWidth == width, frame.pixelHeight == height else {
            throw ImageCodingError.corruptedData(
                format: .unknown, detail: "frame \(index) is \(frame.pixelWidth)x\(frame.pixelHeight), the first \(width)x\(height)")
        }
        return frame.pixels
    }
}
