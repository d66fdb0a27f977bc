// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// A whole PNG or JPEG file stored inside another format (an ICO's PNG entry, a BMP's BI_PNG or
/// BI_JPEG pixel data), decoded by its own codec. Its errors are told in the container's name,
/// so that whoever decodes an ICO hears about the ICO.
enum EmbeddedImage {
    static func decode(
        _ bytes: UnsafeRawBufferPointer, as format: ImageFileFormat, in container: ImageFileFormat,
        options: ImageCreatingOptions, target: DecodingTarget?
    ) throws -> DecodedImage {
        guard !bytes.isEmpty else { throw ImageCodingError.truncatedData(format: container) }
        do {
            switch format {
            case .PNG: return try PNGCodec.decode(bytes, options: options, target: target)
            case .JPEG: return try JPEGCodec.decode(bytes, options: options, target: target)
            default: throw ImageCodingError.corruptedData(format: container, detail: "an embedded \(format) image")
            }
        } catch let error as ImageCodingError {
            switch error {
            case .truncatedData:
                throw ImageCodingError.truncatedData(format: container)
            case .corruptedData(let inner, let detail) where inner != container:
                throw ImageCodingError.corruptedData(format: container, detail: "the embedded \(inner) image: \(detail)")
            case .tooManyPixels(_, let width, let height, let frameCount, let limit):
                throw ImageCodingError.tooManyPixels(
                    format: container, width: width, height: height,
                    frameCount: frameCount, limit: limit)
            default:
                throw error
            }
        }
    }
}
