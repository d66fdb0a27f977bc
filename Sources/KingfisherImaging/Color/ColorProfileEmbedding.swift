// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CDeflate
import CWebP
import Foundation

/// Puts an ICC profile into encoded PNG, JPEG and WebP data, where each format keeps it: a PNG
/// `iCCP` chunk after `IHDR`, JPEG `APP2` `ICC_PROFILE` segments after the JFIF header, a WebP
/// `ICCP` chunk (through libwebp's muxer, which also sets the VP8X flag).
enum ColorProfileEmbedding {
    /// `data` (as the encoder wrote it in `format`) with `profile` embedded; formats without a
    /// place for a profile are returned as they are.
    static func embed(_ profile: ColorProfile, in data: Data, format: ImageFileFormat) throws -> Data {
        switch format {
        case .PNG: return try png(data, icc: profile.iccData)
        case .JPEG: return jpeg(data, icc: profile.iccData)
        case .WebP: return try webp(data, icc: profile.iccData)
        default: return data
        }
    }

    private static func png(_ data: Data, icc: Data) throws -> Data {
        guard let compressor = libdeflate_alloc_compressor(9) else {
            throw ImageCodingError.encodingFailed(format: .PNG, detail: "cannot compress the ICC profile")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, icc.count)
        var compressed = [UInt8](repeating: 0, count: bound)
        let size = icc.withUnsafeBytes { libdeflate_zlib_compress(compressor, $0.baseAddress, $0.count, &compressed, bound) }
        guard size > 0 else { throw ImageCodingError.encodingFailed(format: .PNG, detail: "cannot compress the ICC profile") }
        // Type, then profile name, NUL, compression method 0, zlib stream.
        let body = Array("iCCP".utf8) + Array("ICC profile".utf8) + [0, 0] + compressed.prefix(size)
        var chunk = bigEndian(UInt32(body.count - 4)) + body
        chunk += bigEndian(body.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) })
        // The signature (8 bytes) and IHDR (25 bytes) come first.
        var output = data
        output.insert(contentsOf: chunk, at: output.startIndex + 33)
        return output
    }

    private static func jpeg(_ data: Data, icc: Data) -> Data {
        let signature = Array("ICC_PROFILE\0".utf8)
        // A segment holds at most 65 533 bytes after its length field: 14 go to the header.
        let chunkSize = 65_519
        let chunks = stride(from: 0, to: icc.count, by: chunkSize).map {
            icc[(icc.startIndex + $0)..<(icc.startIndex + min(icc.count, $0 + chunkSize))]
        }
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated() {
            segments += [0xFF, 0xE2] + bigEndian(UInt16(2 + 14 + chunk.count)).suffix(2)
            segments += signature + [UInt8(index + 1), UInt8(chunks.count)] + chunk
        }
        // After SOI, and after a JFIF APP0 segment, which must come first.
        var position = 2
        let bytes = [UInt8](data.prefix(6))
        if bytes.count == 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
            position += 2 + (Int(bytes[4]) << 8 | Int(bytes[5]))
        }
        var output = data
        output.insert(contentsOf: segments, at: output.startIndex + min(position, data.count))
        return output
    }

    private static func webp(_ data: Data, icc: Data) throws -> Data {
        try data.withUnsafeBytes { bytes in
            try icc.withUnsafeBytes { profile in
                var image = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
                var chunk = WebPData(bytes: profile.baseAddress!.assumingMemoryBound(to: UInt8.self), size: profile.count)
                guard let mux = WebPMuxCreate(&image, 0) else {
                    throw ImageCodingError.encodingFailed(format: .WebP, detail: "cannot add the ICC profile")
                }
                defer { WebPMuxDelete(mux) }
                var output = WebPData()
                guard WebPMuxSetChunk(mux, "ICCP", &chunk, 0) == WEBP_MUX_OK, WebPMuxAssemble(mux, &output) == WEBP_MUX_OK else {
                    throw ImageCodingError.encodingFailed(format: .WebP, detail: "cannot add the ICC profile")
                }
                defer { WebPDataClear(&output) }
                return Data(bytes: output.bytes, count: output.size)
            }
        }
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
}
