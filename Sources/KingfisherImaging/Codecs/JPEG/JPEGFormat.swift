// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// JPEG (JFIF or EXIF), baseline or progressive.
    public static let JPEG = ImageFileFormat(rawValue: "JPEG")
}

extension ImageFormatDescriptor {
    /// JPEG through libjpeg-turbo: DCT-scaled decoding to the size a processor needs.
    static let jpeg = ImageFormatDescriptor(
        format: .JPEG, name: "JPEG", mimeType: "image/jpeg", fileExtensions: ["jpg", "jpeg"], supportsAlpha: false,
        // libjpeg's JPEG_MAX_DIMENSION.
        supportsAnimation: false, maxEncodedDimension: 65_500, detect: { $0.count >= 4 && $0.starts(with: [0xFF, 0xD8, 0xFF]) },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try JPEGCodec.decode($0, options: options, target: target) }
        },
        header: { data, options in try data.withUnsafeBytes { try JPEGCodec.header($0, options: options) } },
        encoding: { image, options in try JPEGCodec.encode(image, quality: options.compressionQuality, progressive: options.progressive) })
}
