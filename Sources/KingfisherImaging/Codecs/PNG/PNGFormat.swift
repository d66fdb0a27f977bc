// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// PNG, including animated PNG (APNG).
    public static let PNG = ImageFileFormat(rawValue: "PNG")
}

extension ImageFormatDescriptor {
    /// PNG and APNG through libspng, with a direct path for common 8-bit files.
    static let png = ImageFormatDescriptor(
        format: .PNG, name: "PNG", mimeType: "image/png", fileExtensions: ["png", "apng"], supportsAlpha: true,
        supportsAnimation: true, detect: { $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try PNGCodec.decode($0, options: options, target: target) }
        },
        header: { data, options in try data.withUnsafeBytes { try PNGCodec.header($0, options: options) } },
        encoding: { image, options in try PNGCodec.encode(image, interlaced: options.progressive, effort: options.effort) })
}
