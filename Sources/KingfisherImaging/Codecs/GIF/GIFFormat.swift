// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// GIF, still or animated.
    public static let GIF = ImageFileFormat(rawValue: "GIF")
}

extension ImageFormatDescriptor {
    /// GIF through giflib; frames composited and read in order on demand.
    static let gif = ImageFormatDescriptor(
        format: .GIF, name: "GIF", mimeType: "image/gif", fileExtensions: ["gif"], supportsAlpha: true,
        // The logical screen's 16-bit sizes.
        supportsAnimation: true, maxEncodedDimension: 65_535, detect: { $0.starts(with: [0x47, 0x49, 0x46, 0x38]) },
        decoder: .native { data, options, target in try GIFDecoder.decode(data, options: options, target: target) },
        header: { data, options in try GIFDecoder.header(data, options: options) },
        encoding: { image, _ in
            // An unmodified GIF is written as it came: its palette and timing exactly.
            if image.format == .GIF, let original = image.originalData { return original }
            return try GIFEncoder.encode(image)
        })
}
