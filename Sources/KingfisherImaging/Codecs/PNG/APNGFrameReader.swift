// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Reads an APNG's frames in order: each frame is decoded as a stand-alone PNG (libspng and
/// ``PNGDirectDecoder`` do not assemble APNG) and composited on the canvas with its blending
/// (over or replace) and the previous frame's disposal (none, clear to transparent, or restore).
final class APNGFrameReader: AnimationFrameReader {
    private let data: Data
    private let animation: APNGAnimation
    private let limits: DecodingLimits
    private var canvas: [UInt8]
    private var next = 0
    /// How the frame drawn last is undone before the next one is drawn: its region, its
    /// disposal, and for "previous" the canvas as it was before that frame.
    private var pendingDisposal: (frame: APNGAnimation.Frame, disposal: APNGAnimation.Disposal, saved: [UInt8]?)?

    init(data: Data, animation: APNGAnimation, limits: DecodingLimits) {
        self.data = data
        self.animation = animation
        self.limits = limits
        canvas = [UInt8](repeating: 0, count: animation.width * animation.height * 4)
    }

    func nextFrame() throws -> [UInt8]? {
        guard next < animation.frames.count else { return nil }
        let index = next
        next += 1
        let frame = animation.frames[index]
        let pixels = try data.withUnsafeBytes { bytes in
            let png = animation.standalonePNG(frame: index, from: bytes)
            return try png.withUnsafeBytes { try PNGCodec.decodeStill($0, limit: limits, target: nil) }.frames[0].pixels
        }
        if let pending = pendingDisposal { dispose(pending.frame, pending.disposal, restoring: pending.saved) }
        // The first frame's "previous" disposal means clearing, as the specification says.
        let disposal = index == 0 && frame.disposal == .previous ? .background : frame.disposal
        pendingDisposal = (frame, disposal, disposal == .previous ? canvas : nil)
        draw(pixels, at: frame)
        return canvas
    }

    private func draw(_ pixels: [UInt8], at frame: APNGAnimation.Frame) {
        let width = animation.width
        canvas.withUnsafeMutableBufferPointer { canvas in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<frame.height {
                    let destination = canvas.baseAddress! + ((frame.y + row) * width + frame.x) * 4
                    let from = source.baseAddress! + row * frame.width * 4
                    if frame.blendsOver {
                        for column in 0..<frame.width {
                            let d = destination + column * 4
                            Compositing.store(
                                Compositing.composite(
                                    Compositing.load(from + column * 4), Compositing.load(d),
                                    mode: .normal, alpha: 1), to: d)
                        }
                    } else {
                        destination.update(from: from, count: frame.width * 4)
                    }
                }
            }
        }
    }

    private func dispose(_ frame: APNGAnimation.Frame, _ disposal: APNGAnimation.Disposal, restoring saved: [UInt8]?) {
        guard disposal != .none else { return }
        let width = animation.width
        canvas.withUnsafeMutableBufferPointer { canvas in
            for row in frame.y..<(frame.y + frame.height) {
                let start = (row * width + frame.x) * 4
                if let saved {
                    saved.withUnsafeBufferPointer {
                        canvas.baseAddress!.advanced(by: start).update(from: $0.baseAddress! + start, count: frame.width * 4)
                    }
                } else {
                    canvas.baseAddress!.advanced(by: start).update(repeating: 0, count: frame.width * 4)
                }
            }
        }
    }
}
