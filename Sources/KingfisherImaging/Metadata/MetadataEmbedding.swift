// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CDeflate
import CWebP
import Foundation

/// Puts an ICC profile and an EXIF block into encoded PNG, JPEG and WebP data, where each
/// format keeps them: PNG `iCCP` and `eXIf` chunks after `IHDR`; JPEG `APP1` `Exif` and `APP2`
/// `ICC_PROFILE` segments after the JFIF header; WebP `ICCP` and `EXIF` chunks (through
/// libwebp's muxer, which also sets the VP8X flags). AVIF and JPEG XL take EXIF in their
/// encoders.
enum MetadataEmbedding {
    /// Whether a profile is embedded in `format`'s files after encoding: PNG, JPEG and WebP.
    static func embedsProfile(in format: ImageFileFormat) -> Bool { [.PNG, .JPEG, .WebP].contains(format) }

    /// The most TIFF bytes a JPEG APP1 segment holds after its `Exif\0\0`: a larger block is
    /// left out of JPEG output.
    static let maxJPEGEXIFByteCount = 65_533 - 6

    /// `data` (as the encoder wrote it in `format`) with `icc` and `exif` (TIFF-structured)
    /// embedded, each where given; formats without a place for them are returned as they are.
    static func embed(icc: Data?, exif: Data?, in data: Data, format: ImageFileFormat) throws -> Data {
        guard icc != nil || exif != nil else { return data }
        switch format {
        case .PNG: return try png(data, icc: icc, exif: exif)
        case .JPEG: return jpeg(data, icc: icc, exif: exif.flatMap { $0.count <= maxJPEGEXIFByteCount ? $0 : nil })
        case .WebP: return try webp(data, icc: icc, exif: exif)
        default: return data
        }
    }

    private static func png(_ data: Data, icc: Data?, exif: Data?) throws -> Data {
        var chunks: [UInt8] = []
        if let icc {
            guard let compressor = libdeflate_alloc_compressor(9) else {
                throw ImageCodingError.encodingFailed(format: .PNG, detail: "cannot compress the ICC profile")
            }
            defer { libdeflate_free_compressor(compressor) }
            let bound = libdeflate_zlib_compress_bound(compressor, icc.count)
            var compressed = [UInt8](repeating: 0, count: bound)
            let size = icc.withUnsafeBytes { libdeflate_zlib_compress(compressor, $0.baseAddress, $0.count, &compressed, bound) }
            guard size > 0 else { throw ImageCodingError.encodingFailed(format: .PNG, detail: "cannot compress the ICC profile") }
            // Profile name, NUL, compression method 0, zlib stream.
            chunks += pngChunk("iCCP", Array("ICC profile".utf8) + [0, 0] + compressed.prefix(size))
        }
        if let exif { chunks += pngChunk("eXIf", [UInt8](exif)) }
        // The signature (8 bytes) and IHDR (25 bytes) come first.
        var output = data
        output.insert(contentsOf: chunks, at: output.startIndex + 33)
        return output
    }

    /// A PNG chunk: length, type, data, and the CRC of type and data.
    private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return UInt32(data.count).bigEndianBytes + body
            + body.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }.bigEndianBytes
    }

    private static func jpeg(_ data: Data, icc: Data?, exif: Data?) -> Data {
        var segments: [UInt8] = []
        if let exif {
            segments += [0xFF, 0xE1] + UInt16(2 + 6 + exif.count).bigEndianBytes + TIFFLayout.exifPrefix + exif
        }
        if let icc {
            let signature = Array("ICC_PROFILE\0".utf8)
            // A segment holds at most 65 533 bytes after its length field: 14 go to the header.
            let chunkSize = 65_519
            let chunks = stride(from: 0, to: icc.count, by: chunkSize).map {
                icc[(icc.startIndex + $0)..<(icc.startIndex + min(icc.count, $0 + chunkSize))]
            }
            for (index, chunk) in chunks.enumerated() {
                segments += [0xFF, 0xE2] + UInt16(2 + 14 + chunk.count).bigEndianBytes
                segments += signature + [UInt8(index + 1), UInt8(chunks.count)] + chunk
            }
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

    private static func webp(_ data: Data, icc: Data?, exif: Data?) throws -> Data {
        func failure() -> ImageCodingError { .encodingFailed(format: .WebP, detail: "cannot add the metadata") }
        return try data.withUnsafeBytes { bytes in
            var image = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            guard let mux = WebPMuxCreate(&image, 0) else { throw failure() }
            defer { WebPMuxDelete(mux) }
            for (name, chunk) in [("ICCP", icc), ("EXIF", exif)] {
                guard let chunk, !chunk.isEmpty else { continue }
                // Copied by the muxer (copy_data 1): the bytes need not outlive this call.
                let set = chunk.withUnsafeBytes { body in
                    var chunkData = WebPData(bytes: body.baseAddress!.assumingMemoryBound(to: UInt8.self), size: body.count)
                    return WebPMuxSetChunk(mux, name, &chunkData, 1)
                }
                guard set == WEBP_MUX_OK else { throw failure() }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK else { throw failure() }
            defer { WebPDataClear(&output) }
            return Data(bytes: output.bytes, count: output.size)
        }
    }
}
