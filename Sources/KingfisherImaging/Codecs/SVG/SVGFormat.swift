// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

extension ImageFileFormat {
    /// Scalable Vector Graphics, rasterised by librsvg.
    public static let SVG = ImageFileFormat(rawValue: "SVG")
}

extension ImageFormatDescriptor {
    /// SVG documents through librsvg (read only): drawn at the size a processor asks for, never
    /// enlarged from pixels. Last in the registry: it is text, recognised by its root element.
    static let svg = ImageFormatDescriptor(
        format: .SVG, name: "SVG", mimeType: "image/svg+xml", fileExtensions: ["svg"], supportsAlpha: true,
        supportsAnimation: false,
        detect: SVGSignature.matches,
        decoder: .native { data, options, target in try SVGCodec.decode(data, options: options, target: target) },
        header: { data, options in try SVGCodec.header(data, options: options) },
        encoding: nil)
}
