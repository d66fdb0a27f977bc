// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// Windows icon: a directory of BMP or PNG images.
    public static let ICO = ImageFileFormat(rawValue: "ICO")
}

extension ImageFormatDescriptor {
    /// Windows icons: an ICONDIR (reserved 0, type 1, a non-zero image count); the largest
    /// image is read.
    static let ico = ImageFormatDescriptor(
        format: .ICO, name: "ICO", mimeType: "image/x-icon", fileExtensions: ["ico"], supportsAlpha: true,
        supportsAnimation: false,
        detect: { $0.count >= 6 && $0.starts(with: [0, 0, 1, 0]) && $0[4] | $0[5] != 0 },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try ICODecoder.decode($0, options: options, target: target) }
        },
        encoding: nil)
}
