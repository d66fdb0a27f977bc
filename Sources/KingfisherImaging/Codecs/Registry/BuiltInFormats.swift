// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFormatDescriptor {
    /// The library's own formats, one folder each under `Codecs/`. Their signatures do not
    /// overlap, so the order is only the one ``ImageFileFormat/allCases`` lists them in.
    static let builtIn: [ImageFormatDescriptor] = [.png, .jpeg, .gif, .webP, .heic, .avif, .jxl, .tiff, .bmp, .ico]
}
