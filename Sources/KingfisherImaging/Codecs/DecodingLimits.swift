import Foundation

/// The limits a decoder checks a file against: pixels and frames from the header, before
/// allocating anything, and the size of EXIF it reads.
struct DecodingLimits {
    let maxPixelCount: Int
    var maxFrameCount = ImageCreatingOptions.defaultMaxFrameCount
    var maxEXIFByteCount = ImageCreatingOptions.defaultMaxEXIFByteCount
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
        self.format = format
    }

    /// Throws ``ImageCodingError/tooManyFrames(format:frameCount:limit:)``
    /// when `frameCount` exceeds the frame limit,
    /// ``ImageCodingError/tooManyPixels(format:width:height:frameCount:limit:)``
    /// when `width * height * frameCount` exceeds the pixel limit, and `corruptedData` for a zero size.
    func check(width: Int, height: Int, frameCount: Int = 1) throws {
        if frameCount > maxFrameCount {
            throw ImageCodingError.tooManyFrames(format: format, frameCount: frameCount, limit: maxFrameCount)
        }
        guard width > 0, height > 0 else {
            throw ImageCodingError.corruptedData(format: format, detail: "the header declares a size of \(width)x\(height)")
        }
        guard let total = PixelArea.total(width: width, height: height, frames: frameCount), total <= maxPixelCount else {
            throw ImageCodingError.tooManyPixels(format: format, width: width, height: height,
                                                 frameCount: frameCount, limit: maxPixelCount)
        }
    }
}
