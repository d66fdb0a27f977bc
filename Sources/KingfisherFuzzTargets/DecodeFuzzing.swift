// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// Format detection plus a full decode of arbitrary bytes, every frame of an animation.
enum DecodeFuzzing {
    static func run(_ data: Data) {
        _ = data.kf.imageFormat
        FuzzTarget.expectingLibraryErrors {
            let image = try KingfisherImage.decode(data: data, options: FuzzTarget.decodingOptions)
            precondition(image.pixelWidth > 0 && image.pixelHeight > 0, "an empty image decoded")
            try FuzzTarget.readEveryFrame(of: image)
        }
    }
}
