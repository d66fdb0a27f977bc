// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// The limits a decoder checks a file against: pixels per frame and frames from the header,
/// before allocating anything, the decoded bytes held at once, and the size of EXIF it reads.
struct DecodingLimits {
    let maxPixelCount: Int
    var maxFrameCount = ImageCreatingOptions.defaultMaxFrameCount
    var maxEXIFByteCount = ImageCreatingOptions.defaultMaxEXIFByteCount
    var maxDecodedByteCount = ImageCreatingOptions.defaultMaxDecodedByteCount
    let format: ImageFileFormat

    init(maxPixelCount: Int, format: ImageFileFormat) {
        self.maxPixelCount = maxPixelCount
        self.format = format
    }

    /// The limits `options` set.
    init(_ options: ImageCreatingOptions, format: ImageFileFormat) {
        maxPixelCount = options.maxPixelCount
        maxFrameCount = options.maxFrameCount
        maxEXIFByteCount = options.maxEXIFByteCount
        maxDecodedByteCount = options.maxDecodedByteCount
        self.format = format
    }

    /// Throws ``ImageCodingError/tooManyFrames(format:frameCount:limit:)``
    /// when `frameCount` exceeds the frame limit,
    /// ``ImageCodingError/tooManyPixels(format:width:height:frameCount:limit:)``
    /// when a `width` x `height` frame exceeds the pixel limit, and `corruptedData` for a zero size.
    func check(width: Int, height: Int, frameCount: Int = 1) throws {
        if frameCount > maxFrameCount {
            throw ImageCodingError.tooManyFrames(format: format, frameCount: frameCount, limit: maxFrameCount)
        }
        guard width > 0, height > 0 else {
            throw ImageCodingError.corruptedData(format: format, detail: "the header declares a size of \(width)x\(height)")
        }
        guard let total = PixelArea.total(width: width, height: height, frames: 1), total <= maxPixelCount else {
            throw ImageCodingError.tooManyPixels(
                format: format, width: width, height: height,
                frameCount: 1, limit: maxPixelCount)
        }
    }

    /// Throws ``ImageCodingError/tooManyPixels(format:width:height:frameCount:limit:)`` when
    /// holding `frameCount` decoded frames of `width` x `height` at once would take more than
    /// the decoded-bytes limit (the limit reported in pixels, 4 bytes each).
    func checkHeldBytes(width: Int, height: Int, frameCount: Int) throws {
        let limit = maxDecodedByteCount / PixelBuffer.bytesPerPixel
        guard let total = PixelArea.total(width: width, height: height, frames: frameCount), total <= limit else {
            throw ImageCodingError.tooManyPixels(format: format, width: width, height: height, frameCount: frameCount, limit: limit)
        }
    }
}
