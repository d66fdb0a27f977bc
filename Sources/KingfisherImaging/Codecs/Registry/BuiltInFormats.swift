// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFormatDescriptor {
    /// The library's own formats, one folder each under `Codecs/`, in the order files are
    /// matched against them and ``ImageFileFormat/allCases`` lists them. Order matters once: an
    /// ISO-BMFF file whose `ftyp` box is 256 bytes starts like an ICO's ICONDIR (`00 00 01 00`),
    /// and HEIC and AVIF come first so that it is read as what it is. SVG, which is text, comes
    /// last.
    static let builtIn: [ImageFormatDescriptor] = [.png, .jpeg, .gif, .webP, .heic, .avif, .jxl, .tiff, .bmp, .ico, .svg]
}
