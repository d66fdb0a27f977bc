// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CWebP
import Foundation

/// Reads an animated WebP's frames in order through libwebp's animation decoder, which
/// composites each on the canvas (blending and disposal).
final class WebPFrameReader: AnimationFrameReader {
    private static let format = ImageFileFormat.WebP

    /// The file's bytes, owned here: the decoder reads them as it goes.
    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: OpaquePointer
    private let canvasByteCount: Int
    private var framesRead = 0

    init(data: Data) throws {
        bytes = .allocate(byteCount: max(1, data.count), alignment: 1)
        _ = data.copyBytes(to: bytes.bindMemory(to: UInt8.self))
        var options = WebPAnimDecoderOptions()
        var info = WebPAnimInfo()
        var webp = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: data.count)
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw ImageCodingError.corruptedData(format: Self.format, detail: "libwebp version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 1
        guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
            bytes.deallocate()
            throw WebPFrameReader.isTruncated(data)
                ? ImageCodingError.truncatedData(format: Self.format)
                : .corruptedData(format: Self.format, detail: "invalid animation")
        }
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            WebPAnimDecoderDelete(decoder)
            bytes.deallocate()
            throw ImageCodingError.corruptedData(format: Self.format, detail: "invalid animation header")
        }
        self.decoder = decoder
        canvasByteCount = Int(info.canvas_width) * Int(info.canvas_height) * 4
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// Whether the RIFF header announces more bytes than there are.
    static func isTruncated(_ data: Data) -> Bool {
        guard data.count >= 8 else { return true }
        let size = data.prefix(8).suffix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        return size + 8 > data.count
    }

    func nextFrame() throws -> [UInt8]? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
            throw ImageCodingError.corruptedData(format: Self.format, detail: "frame \(framesRead) cannot be decoded")
        }
        framesRead += 1
        return PixelBuffer.make(count: canvasByteCount) { memcpy($0, buffer, canvasByteCount) }
    }
}
