// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// An encoding made to fit a number of bytes: what ``KingfisherImage/encoded(as:options:maxBytes:)``
/// answers.
public struct ByteBoundedEncoding: Sendable {
    /// The encoded image.
    public let data: Data
    /// The quality it was encoded at, 1…100 (the options' own for formats without one).
    public let quality: Int
    /// Whether it fits in the bytes asked for.
    public let fits: Bool
    /// How many encodings the search made.
    public let encodeCount: Int
}

extension KingfisherImage {
    /// Encodes the image as `format` at the highest quality, at most the options' own, whose
    /// output takes at most `maxBytes` (imgproxy's `max_bytes`); when none does, at quality 1.
    ///
    /// The search starts at the options' quality, then steers by the logarithm of the size,
    /// which falls about linearly with the quality: a guess from a typical slope, then secants
    /// through the sizes seen (between the two that bracket the bound once there are both). It
    /// stops once an output fits using 80% or more of the bytes, or within 3 quality steps of one
    /// that does not fit: about three encodings. Formats without a
    /// quality (PNG, GIF) and lossless encodings are encoded once.
    ///
    /// - Throws: What ``encoded(as:options:)`` throws.
    public func encoded(as format: ImageFileFormat, options: ImageEncodingOptions, maxBytes: Int) throws -> ByteBoundedEncoding {
        let start = Int((min(max(options.compressionQuality, 0.01), 1) * 100).rounded())
        var encodeCount = 0
        func encode(_ quality: Int) throws -> Data {
            encodeCount += 1
            var options = options
            options.compressionQuality = CGFloat(quality) / 100
            return try encoded(as: format, options: options)
        }
        let first = try encode(start)
        let hasQuality = [ImageFileFormat.JPEG, .WebP, .AVIF].contains(format) && !options.lossless
        guard first.count > maxBytes, hasQuality, start > 1 else {
            return ByteBoundedEncoding(data: first, quality: start, fits: first.count <= maxBytes, encodeCount: encodeCount)
        }
        let target = log(Double(maxBytes) * 0.87)
        var fitting: (quality: Int, data: Data)?
        var tooLarge = (quality: start, data: first)
        var samples = [(quality: Double(start), logSize: log(Double(first.count)))]
        func logSize(_ data: Data) -> Double { log(Double(max(data.count, 1))) }
        while encodeCount < 8 {
            if let fitting, fitting.data.count >= maxBytes * 80 / 100 || tooLarge.quality - fitting.quality <= 3 { break }
            let floor = (fitting?.quality ?? 0) + 1
            guard floor < tooLarge.quality else { break }
            // Between the two sizes that bracket the bound once there are both, else along the
            // last two sizes seen, else a typical slope: about 3.5% more bytes a quality step.
            let line: ((Double, Double), (Double, Double))? =
                if let fitting {
                    ((Double(fitting.quality), logSize(fitting.data)), (Double(tooLarge.quality), logSize(tooLarge.data)))
                } else if samples.count >= 2 {
                    (samples[samples.count - 2], samples[samples.count - 1])
                } else {
                    nil
                }
            var guess: Double
            if let (a, b) = line, a.1 != b.1 {
                guess = b.0 + (target - b.1) * (b.0 - a.0) / (b.1 - a.1)
            } else {
                guess = samples[0].quality - (samples[0].logSize - target) / 0.035
            }
            if !guess.isFinite { guess = Double(floor + tooLarge.quality) / 2 }
            let quality = min(max(Int(guess.rounded()), floor), tooLarge.quality - 1)
            let data = try encode(quality)
            samples.append((Double(quality), logSize(data)))
            if data.count <= maxBytes {
                fitting = (quality, data)
            } else {
                tooLarge = (quality, data)
            }
        }
        if let fitting {
            return ByteBoundedEncoding(data: fitting.data, quality: fitting.quality, fits: true, encodeCount: encodeCount)
        }
        let last = tooLarge.quality == 1 ? tooLarge.data : try encode(1)
        return ByteBoundedEncoding(data: last, quality: 1, fits: last.count <= maxBytes, encodeCount: encodeCount)
    }
}
