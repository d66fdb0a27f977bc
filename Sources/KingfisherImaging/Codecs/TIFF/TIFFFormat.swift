// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// TIFF (classic or BigTIFF), little- or big-endian.
    public static let TIFF = ImageFileFormat(rawValue: "TIFF")
}

extension ImageFormatDescriptor {
    /// TIFF and BigTIFF through libtiff (read only): its first image.
    static let tiff = ImageFormatDescriptor(
        format: .TIFF, name: "TIFF", mimeType: "image/tiff", fileExtensions: ["tiff", "tif"], supportsAlpha: true,
        supportsAnimation: false,
        // Classic TIFF (version 42) and BigTIFF (43), little- or big-endian.
        detect: {
            $0.starts(with: [0x49, 0x49, 0x2A, 0x00]) || $0.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
                || $0.starts(with: [0x49, 0x49, 0x2B, 0x00]) || $0.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
        },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try TIFFCodec.decode($0, options: options, target: target) }
        },
        header: { data, options in try data.withUnsafeBytes { try TIFFCodec.header($0, options: options) } },
        encoding: nil)
}
