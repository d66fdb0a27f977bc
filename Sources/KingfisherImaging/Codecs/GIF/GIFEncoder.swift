// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CGif
import Foundation

/// GIF encoding through giflib: each frame gets its own palette (``ColorQuantizer``) as a local
/// colour table, a graphics control extension with its delay, transparency and "restore to
/// background" disposal (every frame is a full canvas), and a NETSCAPE2.0 loop extension when
/// the image is animated and does not play just once.
enum GIFEncoder {
    private static let format = ImageFileFormat.GIF

    /// Collects what giflib writes.
    private final class ByteSink {
        var data = Data()
    }

    static func encode(_ image: KingfisherImage) throws -> Data {
        func failure(_ code: Int32) -> ImageCodingError {
            let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
            return .encodingFailed(format: format, detail: message)
        }
        let sink = ByteSink()
        var openError: Int32 = 0
        let opened = EGifOpen(
            Unmanaged.passUnretained(sink).toOpaque(),
            { file, bytes, length in
                guard let file, let bytes, let user = file.pointee.UserData else { return 0 }
                Unmanaged<ByteSink>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(length))
                return length
            }, &openError)
        guard let gif = opened else { throw failure(openError) }
        var closed = false
        defer { if !closed { EGifCloseFile(gif, nil) } }
        EGifSetGifVersion(gif, true)
        let width = Int32(image.pixelWidth)
        let height = Int32(image.pixelHeight)
        guard EGifPutScreenDesc(gif, width, height, 8, 0, nil) == GIF_OK else { throw failure(gif.pointee.Error) }
        if image.isAnimated && image.loopCount != 1 {
            try writeLoopExtension(gif, loopCount: image.loopCount, failure: failure)
        }
        // Frame by frame: an animation decoded on demand is never held whole.
        for index in 0..<image.frameCount {
            let frame = try image.frame(at: index)
            let quantized = ColorQuantizer(pixels: frame.pixels)
            var control = GraphicsControlBlock(
                DisposalMode: DISPOSE_BACKGROUND, UserInputFlag: false,
                DelayTime: Int32((frame.duration * 100).rounded()),
                TransparentColor: Int32(quantized.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            var extensionBytes = [GifByteType](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &extensionBytes)
            guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes) == GIF_OK else {
                throw failure(gif.pointee.Error)
            }
            let tableSize = max(2, 1 << Int(ceil(log2(Double(max(quantized.palette.count, 2))))))
            var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: tableSize)
            for (i, c) in quantized.palette.enumerated() { colors[i] = GifColorType(Red: c.r, Green: c.g, Blue: c.b) }
            guard let map = GifMakeMapObject(Int32(tableSize), colors) else { throw failure(E_GIF_ERR_NOT_ENOUGH_MEM) }
            defer { GifFreeMapObject(map) }
            guard EGifPutImageDesc(gif, 0, 0, width, height, false, map) == GIF_OK else { throw failure(gif.pointee.Error) }
            var indices = quantized.indices
            try indices.withUnsafeMutableBufferPointer { buffer in
                for row in 0..<image.pixelHeight {
                    guard EGifPutLine(gif, buffer.baseAddress! + row * image.pixelWidth, width) == GIF_OK else {
                        throw failure(gif.pointee.Error)
                    }
                }
            }
        }
        closed = true
        var closeError: Int32 = 0
        guard EGifCloseFile(gif, &closeError) == GIF_OK else { throw failure(closeError) }
        return sink.data
    }

    private static func writeLoopExtension(
        _ gif: UnsafeMutablePointer<GifFileType>, loopCount: Int, failure: (Int32) -> ImageCodingError
    ) throws {
        let identifier = Array("NETSCAPE2.0".utf8)
        let count = UInt16(clamping: loopCount)
        let loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
        guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
            EGifPutExtensionBlock(gif, Int32(identifier.count), identifier) == GIF_OK,
            EGifPutExtensionBlock(gif, Int32(loop.count), loop) == GIF_OK,
            EGifPutExtensionTrailer(gif) == GIF_OK
        else {
            throw failure(gif.pointee.Error)
        }
    }
}
