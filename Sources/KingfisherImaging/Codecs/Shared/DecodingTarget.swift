// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The size a decode should produce, worked out from the upright size the decoder reads in the
/// header. The codecs decode at the smallest reduced scale that still covers it (JPEG DCT
/// scaling, libwebp's scaled decode, a PNG row reducer, a HEIF thumbnail) and then resample
/// exactly to it, so a large image is never held at full size. Never larger than the image: a
/// size over the source's in either dimension decodes at full size, and whoever asked enlarges
/// (after checking its output limit).
///
/// A class used by one decode on one thread, so that the decode can report what it fitted:
/// ``ResizingImageProcessor`` must know whether the image came out at its final size or at full
/// size (which it still has to resize), and the two sizes alone cannot tell it (rounding).
final class DecodingTarget {
    private enum Rule {
        case longestSide(Int)
        case output((_ width: Int, _ height: Int) -> (width: Int, height: Int))
    }

    private let rule: Rule

    /// Whether the last fit gave a size other than the source's (smaller, or larger for a vector
    /// source): the decoded image is then the target size, not the source size.
    private(set) var reduces = false

    private init(_ rule: Rule) {
        self.rule = rule
    }

    /// The longest side at most `maxPixelSize` pixels, aspect ratio kept: what
    /// ``KingfisherImage/downsampled(data:maxPixelSize:options:)`` asks for.
    static func longestSide(_ maxPixelSize: Int) -> DecodingTarget {
        DecodingTarget(.longestSide(maxPixelSize))
    }

    /// The size `output` gives for an upright source of `width` x `height` pixels: what a
    /// processor would make of the whole image.
    static func output(_ output: @escaping (_ width: Int, _ height: Int) -> (width: Int, height: Int)) -> DecodingTarget {
        DecodingTarget(.output(output))
    }

    /// Whether the decoded image may carry the bytes it came from: not once reduced (they no
    /// longer describe it), and never from a downsampling decode, as
    /// ``KingfisherImage/downsampled(data:maxPixelSize:options:)`` documents.
    var keepsOriginalData: Bool {
        if case .longestSide = rule { return false }
        return !reduces
    }

    /// The target for an upright image of `width` x `height` pixels.
    func fit(width: Int, height: Int) -> (width: Int, height: Int) {
        let size: (width: Int, height: Int)
        switch rule {
        case .longestSide(let maxPixelSize):
            size = DownsamplingTarget.fit(width: width, height: height, maxPixelSize: maxPixelSize)
        case .output(let output):
            let wanted = output(width, height)
            size = wanted.width <= width && wanted.height <= height ? wanted : (width, height)
        }
        reduces = size != (width, height)
        return size
    }

    /// The size to draw a vector source whose own size is `width` x `height` at: what the rule
    /// asks for even when that is larger, since drawing it larger loses nothing. A downsampling
    /// decode still never enlarges, as ``KingfisherImage/downsampled(data:maxPixelSize:options:)``
    /// documents.
    func drawingSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard case .output(let output) = rule else { return fit(width: width, height: height) }
        let wanted = output(width, height)
        let size = (max(1, wanted.width), max(1, wanted.height))
        reduces = size != (width, height)
        return size
    }

    /// The target for pixels stored `width` x `height` with `orientation`, in stored
    /// orientation: the upright image is what the rule applies to.
    func fit(storedWidth width: Int, height: Int, orientation: ImageOrientation) -> (width: Int, height: Int) {
        guard orientation.swapsDimensions else { return fit(width: width, height: height) }
        let upright = fit(width: height, height: width)
        return (upright.height, upright.width)
    }
}
