// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// WebP: lossy, lossless, animated.
    public static let WebP = ImageFileFormat(rawValue: "WebP")
}

extension ImageFormatDescriptor {
    /// WebP through libwebp, still and animated; the format holds at most 16 383 pixels a side.
    static let webP = ImageFormatDescriptor(
        format: .WebP, name: "WebP", mimeType: "image/webp", fileExtensions: ["webp"], supportsAlpha: true,
        supportsAnimation: true, maxEncodedDimension: 16_383, negotiationPriority: 1,
        detect: { $0.count >= 12 && $0.starts(with: [0x52, 0x49, 0x46, 0x46]) && $0[8...11] == [0x57, 0x45, 0x42, 0x50] },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try WebPCodec.decode($0, options: options, target: target) }
        },
        header: { data, options in try data.withUnsafeBytes { try WebPCodec.header($0, options: options) } },
        encoding: { image, options in try WebPCodec.encode(image, options: options) })
}
