// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CAvif
import Foundation

/// Reads an AVIF image sequence's frames in order through libavif: each frame is a whole
/// picture (AV1 frames in a track are not composited), alpha made straight.
final class AVIFFrameReader: AnimationFrameReader {
    /// The file's bytes, owned here: libavif reads them as it goes.
    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: UnsafeMutablePointer<avifDecoder>
    private let limits: DecodingLimits

    init(data: Data, limits: DecodingLimits) throws {
        bytes = .allocate(byteCount: max(1, data.count), alignment: 1)
        _ = data.copyBytes(to: bytes.bindMemory(to: UInt8.self))
        do {
            decoder = try AVIFCodec.makeDecoder(UnsafeRawBufferPointer(rebasing: bytes[0..<data.count]), source: AVIF_DECODER_SOURCE_TRACKS)
        } catch {
            bytes.deallocate()
            throw error
        }
        self.limits = limits
    }

    deinit {
        avifDecoderDestroy(decoder)
        bytes.deallocate()
    }

    func nextFrame() throws -> [UInt8]? {
        guard decoder.pointee.imageIndex + 1 < decoder.pointee.imageCount else { return nil }
        return try AVIFCodec.nextImage(decoder, limits: limits, bytes: UnsafeRawBufferPointer(bytes)).pixels
    }
}
