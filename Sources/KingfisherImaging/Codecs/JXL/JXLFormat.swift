// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// JPEG XL, as a bare codestream or in its ISO-BMFF container.
    public static let JXL = ImageFileFormat(rawValue: "JXL")
}

extension ImageFormatDescriptor {
    /// JPEG XL through libjxl: read, and written (``JXLEncoder``); offered to `Accept` after
    /// AVIF and WebP, where an image service's settings include it.
    static let jxl = ImageFormatDescriptor(
        format: .JXL, name: "JPEG XL", mimeType: "image/jxl", fileExtensions: ["jxl"], supportsAlpha: true,
        supportsAnimation: true, negotiationPriority: 2,
        detect: { head in
            head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try JXLCodec.decode($0, options: options, target: target) }
        },
        header: { data, options in try data.withUnsafeBytes { try JXLCodec.header($0, options: options) } },
        encoding: { image, options in try JXLEncoder.encode(image, options: options) })
}
