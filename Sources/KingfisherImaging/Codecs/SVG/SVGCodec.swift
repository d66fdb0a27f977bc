// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Decodes SVG documents: drawn at the size the processing asks for (``DecodingTarget``), or at
/// their own size. A document whose own size is over the pixel limit is refused, as a raster
/// image of that size would be, even when it is to be drawn small.
enum SVGCodec {
    static let format = ImageFileFormat.SVG

    static func decode(_ data: Data, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        let document = try SVGDocument(data, options: options)
        try DecodingLimits.forHeader(options, format: format).check(width: document.width, height: document.height)
        let size: (width: Int, height: Int) =
            target?.drawingSize(width: document.width, height: document.height) ?? (document.width, document.height)
        try DecodingLimits(options, format: format).check(width: size.width, height: size.height)
        let pixels = try document.render(width: size.width, height: size.height, timeLimit: options.maxSVGRenderingTime)
        return DecodedImage(width: size.width, height: size.height, frames: [ImageFrame(pixels: pixels)], hasAlpha: true)
    }

    static func header(_ data: Data, options: ImageCreatingOptions) throws -> ImageHeader {
        let document = try SVGDocument(data, options: options)
        try DecodingLimits.forHeader(options, format: format).check(width: document.width, height: document.height)
        return ImageHeader(storedWidth: document.width, height: document.height, hasAlpha: true)
    }
}
