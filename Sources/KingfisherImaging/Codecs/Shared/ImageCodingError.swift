// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Why image data could not be decoded or an image encoded. Apple's ImageIO hides these behind
/// a `nil` image; here each says which format, what was wrong, and with what.
///
/// `Kingfisher` reports it as Kingfisher does a failed decode, `processorError(.processingFailed)`,
/// whose processor (`KingfisherError.DecodingFailure`) carries it; the codes are in the `com.onevcat.Kingfisher.Error`
/// domain.
public enum ImageCodingError: Error, Sendable, Equatable {
    /// The data is empty. Code 6001.
    case emptyData
    /// The bytes are not an image of any recognised format. `description` says what they
    /// look like instead (for example "an HTML document"). Code 6002.
    case unknownFormat(description: String)
    /// The bytes are an image of a recognised format that this library does not decode here
    /// (reserved for formats recognised before a decoder exists for them). Code 6003.
    case unsupportedFormat(ImageFileFormat)
    /// The data is invalid for its format; `detail` is the decoder's own message. Code 6004.
    case corruptedData(format: ImageFileFormat, detail: String)
    /// The data ends before the image does. Code 6005.
    case truncatedData(format: ImageFileFormat)
    /// The header announces more pixels than the allowed limit (all frames of an animation
    /// counted). Nothing was allocated for the pixels. Code 6006.
    case tooManyPixels(format: ImageFileFormat, width: Int, height: Int, frameCount: Int, limit: Int)
    /// Encoding an image into `format` failed; `detail` says why. Code 6007.
    case encodingFailed(format: ImageFileFormat, detail: String)
    /// The animation has more frames than the allowed limit (`frameCount` is how many were
    /// found before refusing: for GIF, the limit plus one). Code 6008.
    case tooManyFrames(format: ImageFileFormat, frameCount: Int, limit: Int)
    /// The file is over one of the other limits on untrusted input (an SVG document's size, its
    /// rendering time, or a reference to something outside it, when a document may load
    /// nothing); `detail` says which. Code 6009.
    case overLimit(format: ImageFileFormat, detail: String)

    /// The error code within the `com.onevcat.Kingfisher.Error` domain.
    public var errorCode: Int {
        switch self {
        case .emptyData: return 6001
        case .unknownFormat: return 6002
        case .unsupportedFormat: return 6003
        case .corruptedData: return 6004
        case .truncatedData: return 6005
        case .tooManyPixels: return 6006
        case .encodingFailed: return 6007
        case .tooManyFrames: return 6008
        case .overLimit: return 6009
        }
    }

    /// A one-line, human readable description naming the format and what was wrong.
    public var errorDescription: String {
        switch self {
        case .emptyData:
            return "The image data is empty."
        case .unknownFormat(let description):
            return "The data is not an image in any known format: it looks like \(description)."
        case .unsupportedFormat(let format):
            return "The data is a \(format) image, which is recognised but not supported."
        case .corruptedData(let format, let detail):
            return "The \(format) data is corrupted: \(detail)."
        case .truncatedData(let format):
            return "The \(format) data is truncated: it ends before the image does."
        case .tooManyPixels(let format, let width, let height, let frameCount, let limit):
            let frames = frameCount > 1 ? " x \(frameCount) frames" : ""
            return "The \(format) image is \(width)x\(height)\(frames) pixels, over the limit of \(limit) pixels."
        case .encodingFailed(let format, let detail):
            return "Encoding the image as \(format) failed: \(detail)."
        case .tooManyFrames(let format, let frameCount, let limit):
            return "The \(format) animation has \(frameCount) frames, over the limit of \(limit) frames."
        case .overLimit(let format, let detail):
            return "The \(format) image is refused: \(detail)."
        }
    }
}

extension ImageCodingError: CustomStringConvertible, CustomNSError {
    /// Same as ``errorDescription``.
    public var description: String { errorDescription }

    /// `"com.onevcat.Kingfisher.Error"`, the domain of every Kingfisher error.
    public static var errorDomain: String { "com.onevcat.Kingfisher.Error" }

    /// Carries ``errorDescription`` as `NSLocalizedDescriptionKey`, so `localizedDescription`
    /// says what happened.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription] }
}
