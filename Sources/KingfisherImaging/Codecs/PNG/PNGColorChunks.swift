// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CDeflate
import Foundation

/// The colour space a PNG declares in the chunks before its image data, by the precedence of
/// the PNG specification (third edition): cICP, then iCCP, then sRGB, then gAMA with cHRM.
enum PNGColorChunks {
    /// gAMA's usual 1/2.2 is how old encoders label sRGB; applied literally it would darken the
    /// shadows of countless web images that browsers show as sRGB.
    private static let sRGBLikeGamma = 0.44955...0.45955

    /// Reads the colour chunks of a PNG (signature included); malformed ones are ignored,
    /// leaving sRGB.
    static func colorSpace(of bytes: UnsafeRawBufferPointer) -> SourceColorSpace {
        var cicp: SourceColorSpace?
        var icc: Data?
        var isSRGB = false
        var gamma: Double?
        var chromaticities: SourceColorSpace.Chromaticities?
        func word(_ offset: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian }
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(word(offset))
            let type = word(offset + 4)
            guard length <= bytes.count - offset - 12, type != PNGChunkType.imageData else { break }
            let body = UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)])
            switch type {
            case PNGChunkType.cicp where length == 4:
                cicp = .cicp(primaries: Int(body[0]), transfer: Int(body[1]))
            case PNGChunkType.iccp:
                icc = inflatedProfile(body)
            case PNGChunkType.srgb:
                isSRGB = true
            case PNGChunkType.gamma where length == 4:
                gamma = Double(body.loadUnaligned(as: UInt32.self).bigEndian) / 100_000
            case PNGChunkType.chromaticities where length == 32:
                let v = (0..<8).map { Double(body.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self).bigEndian) / 100_000 }
                chromaticities = .init(white: (v[0], v[1]), red: (v[2], v[3]), green: (v[4], v[5]), blue: (v[6], v[7]))
            default:
                break
            }
            offset += 12 + length
        }
        if let cicp { return cicp }
        if let icc { return .icc(icc) }
        if isSRGB { return .sRGB }
        guard let gamma, chromaticities != nil || !sRGBLikeGamma.contains(gamma) else { return .sRGB }
        return .calibrated(gamma: gamma, chromaticities: chromaticities)
    }

    /// iCCP: a profile name (1-79 bytes), a NUL, compression method 0, then the zlib stream.
    private static func inflatedProfile(_ body: UnsafeRawBufferPointer) -> Data? {
        guard let nul = body.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 < body.count, body[nul + 1] == 0,
            let decompressor = libdeflate_alloc_decompressor()
        else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        let stream = UnsafeRawBufferPointer(rebasing: body[(nul + 2)...])
        var capacity = max(4096, stream.count * 4)
        while capacity <= LittleCMS.maxProfileByteCount {
            var profile = Data(count: capacity)
            var actual = 0
            let result = profile.withUnsafeMutableBytes { out in
                libdeflate_zlib_decompress(decompressor, stream.baseAddress, stream.count, out.baseAddress, capacity, &actual)
            }
            switch result {
            case LIBDEFLATE_SUCCESS: return profile.prefix(actual)
            case LIBDEFLATE_INSUFFICIENT_SPACE: capacity *= 4
            default: return nil
            }
        }
        return nil
    }
}
