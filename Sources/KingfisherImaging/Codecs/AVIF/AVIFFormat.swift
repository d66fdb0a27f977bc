// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// AVIF: HEIF with AV1-coded images.
    public static let AVIF = ImageFileFormat(rawValue: "AVIF")
}

extension ImageFormatDescriptor {
    /// AVIF through libavif: a major brand `avif`/`avis`, or a generic HEIF one listing them.
    static let avif = ImageFormatDescriptor(
        format: .AVIF, name: "AVIF", mimeType: "image/avif", fileExtensions: ["avif"], supportsAlpha: true,
        // AV1's 16-bit frame sizes.
        supportsAnimation: true, maxEncodedDimension: 65_536, negotiationPriority: 0,
        detect: { head in
            guard let brands = BMFFBrands.of(head) else { return false }
            return ["avif", "avis"].contains(brands.major) || (BMFFBrands.isGeneric(brands) && BMFFBrands.listsAVIF(brands))
        },
        decoder: .native { data, options, target in try data.withUnsafeBytes { try AVIFCodec.decode($0, options: options, target: target) }
        },
        header: { data, options in try data.withUnsafeBytes { try AVIFCodec.header($0, options: options) } },
        encoding: { image, options in try AVIFEncoder.encode(image, options: options) })
}
