// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Where an image's frames come from: held in memory, decoded from the file when asked, or
/// another source's frames put through a processor as they are asked for.
///
/// Frames are asked for by index; sources are fastest in order (0, 1, 2, …), which is how
/// encoders and players read them.
protocol AnimationFrames: Sendable {
    /// How many frames there are; at least 1.
    var count: Int { get }
    /// How long frame `index` is shown, in seconds.
    func duration(at index: Int) -> TimeInterval
    /// The RGBA pixels of frame `index` (see ``ImageFrame/pixels``).
    /// - Throws: ``ImageCodingError`` when the frame cannot be decoded from the file.
    func pixels(at index: Int) throws -> [UInt8]
    /// Bytes of decoded pixels the source holds right now (what ``KingfisherImage/cost`` counts).
    var heldByteCount: Int { get }
}

/// Frames held in memory: a still image, a decoded animation, or an animation made from pixels.
struct StoredFrames: AnimationFrames {
    let frames: [ImageFrame]

    var count: Int { frames.count }
    func duration(at index: Int) -> TimeInterval { frames[index].duration }
    func pixels(at index: Int) throws -> [UInt8] { frames[index].pixels }
    var heldByteCount: Int { frames.reduce(0) { $0 + $1.pixels.count } }
}

/// Another source's frames, each put through `transform` when asked for: a processor applied to
/// an animation that is decoded on demand stays on demand, so resizing a 400-frame GIF holds a
/// few frames, not 400. The first frame and the last one made are kept.
final class MappedFrames: AnimationFrames {
    private let base: any AnimationFrames
    private let transform: @Sendable ([UInt8]) throws -> [UInt8]
    private let first: [UInt8]
    private let last = Locked<(index: Int, pixels: [UInt8])?>(nil)

    /// `first` is frame 0 already transformed (the image holds it anyway).
    init(_ base: any AnimationFrames, first: [UInt8], transform: @escaping @Sendable ([UInt8]) throws -> [UInt8]) {
        self.base = base
        self.first = first
        self.transform = transform
    }

    var count: Int { base.count }
    func duration(at index: Int) -> TimeInterval { base.duration(at: index) }
    var heldByteCount: Int { base.heldByteCount + (last.withLock { $0?.pixels.count } ?? 0) }

    func pixels(at index: Int) throws -> [UInt8] {
        if index == 0 { return first }
        if let kept = last.withLock({ $0 }), kept.index == index { return kept.pixels }
        let pixels = try transform(base.pixels(at: index))
        last.withLock { $0 = (index, pixels) }
        return pixels
    }
}
