// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// An animation's frames decoded from its file when they are asked for, holding the most
/// recent few: what keeps a 400-frame GIF at a few megabytes instead of hundreds.
///
/// Frames come out of one reader, in order; asking for an earlier frame than the reader's
/// position starts a new reader from the first frame. One lock guards the reader and the
/// window, so frames are decoded one at a time even when several threads ask.
final class FramesDecodedOnDemand: AnimationFrames {
    private struct State {
        var reader: (any AnimationFrameReader)?
        /// The index of the frame the reader gives next.
        var position = 0
        /// The most recently made frames, oldest first.
        var window: [(index: Int, pixels: [UInt8])] = []
    }

    private let animation: OnDemandAnimation
    private let encodedByteCount: Int
    private let windowCount: Int
    private let state = Locked(State())

    /// - Parameters:
    ///   - animation: The codec's reader, durations and finishing step.
    ///   - encodedByteCount: The size of the file the reader decodes from (counted as held).
    ///   - frameByteCount: The size of one output frame.
    ///   - maxHeldByteCount: The most bytes of frames the window may hold; at least one frame
    ///     is held whatever the limit.
    init(_ animation: OnDemandAnimation, encodedByteCount: Int, frameByteCount: Int, maxHeldByteCount: Int) {
        self.animation = animation
        self.encodedByteCount = encodedByteCount
        windowCount = max(1, min(Self.preferredWindowCount, maxHeldByteCount / max(1, frameByteCount)))
    }

    /// Frames kept besides the one being made: as many as Kingfisher's player preloads.
    static let preferredWindowCount = 10

    var count: Int { animation.durations.count }
    func duration(at index: Int) -> TimeInterval { animation.durations[index] }

    var heldByteCount: Int {
        encodedByteCount + state.withLock { $0.window.reduce(0) { $0 + $1.pixels.count } }
    }

    func pixels(at index: Int) throws -> [UInt8] {
        try state.withLock { state in
            if let held = state.window.first(where: { $0.index == index }) { return held.pixels }
            if state.reader == nil || state.position > index {
                state.reader = try animation.makeReader()
                state.position = 0
            }
            while state.position < index {
                guard try state.reader!.nextFrame() != nil else { throw truncated(at: index) }
                state.position += 1
            }
            guard let canvas = try state.reader!.nextFrame() else { throw truncated(at: index) }
            state.position += 1
            let pixels = animation.finish(canvas)
            state.window.append((index, pixels))
            if state.window.count > windowCount { state.window.removeFirst() }
            return pixels
        }
    }

    private func truncated(at index: Int) -> ImageCodingError {
        .corruptedData(format: .unknown, detail: "frame \(index) of \(count) cannot be read")
    }
}
