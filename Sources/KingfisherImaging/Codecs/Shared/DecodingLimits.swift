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
    /// Charged for each frame (and each set of frames held at once) the header declares.
    var pixelMemory: PixelMemoryBudget.Account?
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
        pixelMemory = options.pixelMemory
        self.format = format
    }

    /// The limits `options` set for reading headers alone: the same, but nothing is charged to
    /// the pixel memory budget, since no pixel is decoded.
    static func forHeader(_ options: ImageCreatingOptions, format: ImageFileFormat) -> DecodingLimits {
        var limits = DecodingLimits(options, format: format)
        limits.pixelMemory = nil
        return limits
    }

    /// Throws ``ImageCodingError/tooManyFrames(format:frameCount:limit:)``
    /// when `frameCount` exceeds the frame limit,
    /// ``ImageCodingError/tooManyPixels(format:width:height:frameCount:limit:)``
    /// when a `width` x `height` frame exceeds the pixel limit, `corruptedData` for a zero size,
    /// and ``PixelMemoryBudget/Refusal`` when the frame does not fit the pixel memory budget.
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
        try pixelMemory?.charge(total * PixelBuffer.bytesPerPixel)
    }

    /// Throws ``ImageCodingError/tooManyPixels(format:width:height:frameCount:limit:)`` when
    /// holding `frameCount` decoded frames of `width` x `height` at once would take more than
    /// the decoded-bytes limit (the limit reported in pixels, 4 bytes each), and
    /// ``PixelMemoryBudget/Refusal`` when they do not fit the pixel memory budget.
    func checkHeldBytes(width: Int, height: Int, frameCount: Int) throws {
        let limit = maxDecodedByteCount / PixelBuffer.bytesPerPixel
        guard let total = PixelArea.total(width: width, height: height, frames: frameCount), total <= limit else {
            throw ImageCodingError.tooManyPixels(format: format, width: width, height: height, frameCount: frameCount, limit: limit)
        }
        try pixelMemory?.charge(total * PixelBuffer.bytesPerPixel)
    }
}
