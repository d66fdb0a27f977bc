// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging

/// One format's decoder on arbitrary bytes, whatever their magic bytes say: a full decode of
/// every frame and, when that succeeds, a downsampled one (the path through the format's own
/// reduced decode).
enum FormatDecodeFuzzing {
    static func run(_ data: Data, as format: ImageFileFormat) {
        FuzzTarget.expectingLibraryErrors {
            let options = FuzzTarget.decodingOptions
            let image = try ImageDecoder.decode(data, as: format, options: options)
            precondition(image.pixelWidth > 0 && image.pixelHeight > 0, "an empty image decoded")
            try FuzzTarget.readEveryFrame(of: image)
            let thumbnail = try ImageDecoder.decode(data, as: format, options: options, maxPixelSize: 32)
            precondition(max(thumbnail.pixelWidth, thumbnail.pixelHeight) <= 32, "a thumbnail over its size")
        }
    }
}
