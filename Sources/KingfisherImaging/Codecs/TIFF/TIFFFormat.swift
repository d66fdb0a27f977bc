// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// TIFF, little- or big-endian.
    public static let TIFF = ImageFileFormat(rawValue: "TIFF")
}

extension ImageFormatDescriptor {
    /// TIFF through libtiff (read only): its first image.
    static let tiff = ImageFormatDescriptor(
        format: .TIFF, name: "TIFF", mimeType: "image/tiff", fileExtensions: ["tiff", "tif"], supportsAlpha: true,
        supportsAnimation: false,
        detect: { $0.starts(with: [0x49, 0x49, 0x2A, 0x00]) || $0.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try TIFFCodec.decode($0, options: options, target: target) }
        },
        encoder: nil)
}
