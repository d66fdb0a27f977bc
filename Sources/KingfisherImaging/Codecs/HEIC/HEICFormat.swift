// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// HEIF with HEVC-coded images (HEIC): what iPhones take photos in.
    public static let HEIC = ImageFileFormat(rawValue: "HEIC")
}

extension ImageFormatDescriptor {
    /// HEIC through libheif (read only): an HEVC major brand, or a generic HEIF one without AVIF.
    static let heic = ImageFormatDescriptor(
        format: .HEIC, name: "HEIC", mimeType: "image/heic", fileExtensions: ["heic", "heif"], supportsAlpha: true,
        supportsAnimation: false,
        detect: { head in
            guard let brands = BMFFBrands.of(head) else { return false }
            return ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains(brands.major)
                || (BMFFBrands.isGeneric(brands) && !BMFFBrands.listsAVIF(brands))
        },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try HEIFCodec.decode($0, options: options, target: target) }
        },
        header: { data, options in try data.withUnsafeBytes { try HEIFCodec.header($0, options: options) } },
        encoding: nil)
}
