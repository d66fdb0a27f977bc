// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CSpng
import Foundation

/// PNG: every colour type and bit depth (16-bit reduced to 8 by taking the high byte), palettes
/// and colour keys with tRNS, Adam7 interlacing, eXIf orientation, colour chunks. libspng decodes and encodes;
/// the common 8-bit kinds decode faster through ``PNGDirectDecoder``.
enum PNGCodec {
    private static let format = ImageFileFormat.PNG
    /// The largest ancillary chunk, and the most ancillary data in all, kept while decoding: 16 MiB.
    private static let chunkLimit = 16 << 20

    private static func error(_ code: Int32) -> ImageCodingError {
        // SPNG_IO_EOF: the buffer ended mid-chunk; SPNG_EOF: it ended before IEND.
        if code == Int32(SPNG_IO_EOF.rawValue) || code == Int32(SPNG_EOF.rawValue) {
            return .truncatedData(format: format)
        }
        let message = String(cString: spng_strerror(code))
        return .corruptedData(format: format, detail: message)
    }

    /// Decodes `bytes`. Common PNGs up to ``PNGDirectDecoder/maxInflatedSize`` inflated go through
    /// ``PNGDirectDecoder`` (libdeflate, holding the inflated rows); the rest, and any file that
    /// decoder declines, through libspng, which streams. With a target, rows go through a
    /// ``BoxReducer`` (PNG cannot be decoded at a reduced scale, but the RGBA result need not be
    /// held at full size: an interlaced image is the exception) and a Lanczos pass makes the
    /// final size.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        if let repaired = PNGTransparencyOrder.repaired(bytes) {
            return try repaired.withUnsafeBytes { try decode($0, options: options, target: target) }
        }
        let limit = DecodingLimits(options, format: format)
        // An animation that is invalid shows its default image alone, as browsers do.
        var image =
            if !options.onlyFirstFrame, APNGAnimation.isAnimated(bytes), let animation = try APNGAnimation(bytes, limits: limit) {
                try decodeAnimation(animation, bytes, options: options, limit: limit, target: target)
            } else {
                try decodeStill(bytes, limit: limit, target: target)
            }
        image.colorSpace = PNGColorChunks.colorSpace(of: bytes)
        return image
    }

    /// What the chunks before the image data say (and an APNG's frame table): libspng reads
    /// the header and transparency with its own checks; no pixel is decoded.
    static func header(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions) throws -> ImageHeader {
        if let repaired = PNGTransparencyOrder.repaired(bytes) {
            return try repaired.withUnsafeBytes { try Self.header($0, options: options) }
        }
        let limits = DecodingLimits.forHeader(options, format: format)
        let (ctx, ihdr) = try openContext(bytes)
        defer { spng_ctx_free(ctx) }
        try limits.check(width: Int(ihdr.width), height: Int(ihdr.height))
        var transparency = spng_trns()
        let hasAlpha =
            ihdr.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue)
            || ihdr.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
            || spng_get_trns(ctx, &transparency) == 0
        // An eXIf chunk after the image data counts too, as in a decode.
        let orientation =
            PNGChunkLayout(bytes)?.exif.map { EXIFReader.orientation(tiff: $0, maxByteCount: limits.maxEXIFByteCount) }
            ?? exifOrientation(ctx, maxByteCount: limits.maxEXIFByteCount)
        var found = ImageHeader(
            storedWidth: Int(ihdr.width), height: Int(ihdr.height), orientation: orientation, hasAlpha: hasAlpha,
            colorSpace: PNGColorChunks.colorSpace(of: bytes))
        if !options.onlyFirstFrame, APNGAnimation.isAnimated(bytes), let animation = try APNGAnimation(bytes, limits: limits) {
            found.durations = animation.frames.map(\.duration)
            found.loopCount = found.durations.count > 1 ? animation.playCount : 0
            found.hasAlpha = true
        }
        return found
    }

    /// An APNG: its frame table now, the first frame decoded now and the rest on demand unless
    /// `preloadAll` asks for all of them.
    private static func decodeAnimation(
        _ animation: APNGAnimation, _ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions,
        limit: DecodingLimits, target: DecodingTarget?
    ) throws -> DecodedImage {
        let orientation = PNGChunkLayout(bytes)?.exif.map { EXIFReader.orientation(tiff: $0, maxByteCount: limit.maxEXIFByteCount) } ?? .up
        let data = Data(bytes)
        return try OnDemandAnimation.decodedImage(
            canvasWidth: animation.width, canvasHeight: animation.height, durations: animation.frames.map(\.duration),
            loopCount: animation.playCount, hasAlpha: true, orientation: orientation, target: target,
            preloadAll: options.preloadAll, limits: limit
        ) { APNGFrameReader(data: data, animation: animation, limits: limit) }
    }

    static func decodeStill(_ bytes: UnsafeRawBufferPointer, limit: DecodingLimits, target: DecodingTarget?) throws -> DecodedImage {
        if let layout = PNGChunkLayout(bytes), let decoder = PNGDirectDecoder(layout) {
            try limit.check(width: decoder.width, height: decoder.height)
            let orientation = layout.exif.map { EXIFReader.orientation(tiff: $0, maxByteCount: limit.maxEXIFByteCount) } ?? .up
            let size = target?.fit(storedWidth: decoder.width, height: decoder.height, orientation: orientation)
            if var image = try decodeDirectly(decoder, target: size) {
                image.applyOrientation(orientation)
                return image
            }
        }
        return try decodeWithLibspng(bytes, limit: limit, target: target)
    }

    private static func decodeDirectly(_ decoder: PNGDirectDecoder, target: (width: Int, height: Int)?) throws -> DecodedImage? {
        let width = decoder.width
        return try assemble(
            width: width, height: decoder.height, hasAlpha: decoder.hasAlpha, target: target,
            reducerRowChannels: decoder.hasAlpha ? 4 : decoder.channels,
            reduce: { reducer in
                // Opaque grey or RGB rows go to the reducer as they are.
                guard decoder.hasAlpha else { return decoder.forEachFileRow { reducer.add(row: $1) } }
                var row = [UInt8](repeating: 0, count: width * 4)
                return row.withUnsafeMutableBufferPointer { row in
                    decoder.decodeRows(destination: { _ in row.baseAddress! }, row: { reducer.add(row: $0) })
                }
            },
            decodeWhole: { pixels in
                decoder.decodeRows(destination: { pixels + $0 * width * 4 }, row: { _ in })
            })
    }

    /// A libspng context reading `bytes`, and the header it read; the caller frees it.
    private static func openContext(_ bytes: UnsafeRawBufferPointer) throws -> (OpaquePointer, spng_ihdr) {
        guard let ctx = spng_ctx_new(0) else {
            throw ImageCodingError.corruptedData(format: format, detail: "libspng could not start")
        }
        // zlib's Adler-32 stays checked: libspng stops reading the last IDAT chunk once the
        // image is complete, so that chunk's CRC is never compared.
        spng_set_crc_action(ctx, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_DISCARD.rawValue))
        spng_set_chunk_limits(ctx, chunkLimit, chunkLimit)
        var header = spng_ihdr()
        var status = spng_set_png_buffer(ctx, bytes.baseAddress, bytes.count)
        if status == 0 { status = spng_get_ihdr(ctx, &header) }
        guard status == 0 else {
            spng_ctx_free(ctx)
            throw error(status)
        }
        return (ctx, header)
    }

    /// The libspng path alone (tests compare it with ``PNGDirectDecoder``'s).
    static func decodeWithLibspng(
        _ bytes: UnsafeRawBufferPointer, limit: DecodingLimits,
        target decodingTarget: DecodingTarget?
    ) throws -> DecodedImage {
        let (ctx, header) = try openContext(bytes)
        defer { spng_ctx_free(ctx) }
        var status: Int32 = 0
        let width = Int(header.width)
        let height = Int(header.height)
        try limit.check(width: width, height: height)

        var transparency = spng_trns()
        let hasAlpha =
            header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue)
            || header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
            || spng_get_trns(ctx, &transparency) == 0
        let fmt = Int32(SPNG_FMT_RGBA8.rawValue)
        var size = 0
        status = spng_decoded_image_size(ctx, fmt, &size)
        guard status == 0, size == width * height * 4 else { throw error(status) }

        // Progressive (row by row) decoding gives an interlaced image's rows pass by pass.
        let reduce: ((inout BoxReducer) throws -> Bool)? =
            header.interlace_method != 0
            ? nil
            : { reducer in
                try decodeRows(ctx, format: fmt, rowBytes: width * 4) { reducer.add(row: $0) }
                return true
            }
        // libspng finds an eXIf chunk before the image data now, one after it only once decoded.
        let orientationBefore = exifOrientation(ctx, maxByteCount: limit.maxEXIFByteCount)
        let target = decodingTarget?.fit(storedWidth: width, height: height, orientation: orientationBefore)
        var failure: Int32 = 0
        let assembled = try assemble(
            width: width, height: height, hasAlpha: hasAlpha, target: target, reduce: reduce,
            decodeWhole: { pixels in
                failure = spng_decode_image(ctx, pixels, size, fmt, Int32(SPNG_DECODE_TRNS.rawValue))
                return failure == 0
            })
        guard var image = assembled else { throw error(failure) }
        let orientation = exifOrientation(ctx, maxByteCount: limit.maxEXIFByteCount)
        if orientation != orientationBefore, let decodingTarget {
            // The target was fitted to the wrong upright shape: fit the one the file has.
            let size = decodingTarget.fit(storedWidth: width, height: height, orientation: orientation)
            image.resample(to: size.width, size.height)
        }
        image.applyOrientation(orientation)
        return image
    }

    /// Makes the decoded image, at `target`'s size when given: rows go through a
    /// ``BoxReducer`` taking rows of `reducerRowChannels` bytes per pixel (by `reduce`, when
    /// given) if that shrinks the image at least twofold, else
    /// `decodeWhole` fills full-size RGBA8 pixels; then a Lanczos pass gives the exact size.
    /// `nil` when `reduce` or `decodeWhole` returns `false`.
    private static func assemble(
        width: Int, height: Int, hasAlpha: Bool, target: (width: Int, height: Int)?,
        reducerRowChannels: Int = 4, reduce: ((inout BoxReducer) throws -> Bool)?,
        decodeWhole: (UnsafeMutablePointer<UInt8>) throws -> Bool
    ) throws -> DecodedImage? {
        let factor = target.map { BoxReducer.factor(width: width, height: height, target: $0) } ?? 1
        var image: DecodedImage
        if factor > 1, let reduce {
            var reducer = BoxReducer(
                width: width, height: height, factor: factor, hasAlpha: hasAlpha,
                rowChannels: reducerRowChannels)
            guard try reduce(&reducer) else { return nil }
            image = DecodedImage(
                width: reducer.outputWidth, height: reducer.outputHeight,
                frames: [ImageFrame(pixels: reducer.pixels)], hasAlpha: hasAlpha)
        } else {
            var decoded = false
            // On failure nothing useful was written, and the bytes are discarded.
            let pixels = try PixelBuffer.make(count: width * height * 4) { decoded = try decodeWhole($0) }
            guard decoded else { return nil }
            image = DecodedImage(width: width, height: height, frames: [ImageFrame(pixels: pixels)], hasAlpha: hasAlpha)
        }
        if let target { image.resample(to: target.width, target.height) }
        return image
    }

    /// Decodes a non-interlaced image row by row, handing each RGBA8 row to `row`.
    private static func decodeRows(
        _ ctx: OpaquePointer, format: Int32, rowBytes: Int,
        _ row: (UnsafePointer<UInt8>) -> Void
    ) throws {
        let flags = Int32(SPNG_DECODE_TRNS.rawValue) | Int32(SPNG_DECODE_PROGRESSIVE.rawValue)
        var status = spng_decode_image(ctx, nil, 0, format, flags)
        guard status == 0 else { throw error(status) }
        var buffer = [UInt8](repeating: 0, count: rowBytes)
        try buffer.withUnsafeMutableBufferPointer { buffer in
            repeat {
                status = spng_decode_row(ctx, buffer.baseAddress, rowBytes)
                // SPNG_EOI comes with the last row.
                guard status == 0 || status == Int32(SPNG_EOI.rawValue) else { throw error(status) }
                row(buffer.baseAddress!)
            } while status == 0
        }
    }

    private static func exifOrientation(_ ctx: OpaquePointer, maxByteCount: Int) -> ImageOrientation {
        var exif = spng_exif()
        guard spng_get_exif(ctx, &exif) == 0, let data = exif.data, exif.length > 0 else { return .up }
        return EXIFReader.orientation(tiff: UnsafeRawBufferPointer(start: data, count: exif.length), maxByteCount: maxByteCount)
    }

    /// Encodes the first frame as an 8-bit PNG: RGBA when any pixel is non-opaque, else RGB;
    /// Adam7-interlaced when `interlaced` (default not); `effort` 0…9 is zlib's level (default
    /// `nil`: libspng's, 6).
    static func encode(_ image: KingfisherImage, interlaced: Bool = false, effort: Int? = nil) throws -> Data {
        guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw ImageCodingError.encodingFailed(format: format, detail: "libspng could not start")
        }
        defer { spng_ctx_free(ctx) }
        spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1)
        let opaque = !image.hasAlpha || PixelOps.isOpaque(image.pixels)
        var header = spng_ihdr()
        header.width = UInt32(image.pixelWidth)
        header.height = UInt32(image.pixelHeight)
        header.bit_depth = 8
        header.color_type = UInt8(opaque ? SPNG_COLOR_TYPE_TRUECOLOR.rawValue : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue)
        header.interlace_method = UInt8(interlaced ? SPNG_INTERLACE_ADAM7.rawValue : SPNG_INTERLACE_NONE.rawValue)
        if let effort { spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, Int32(min(max(effort, 0), 9))) }
        var status = spng_set_ihdr(ctx, &header)
        let samples = opaque ? PixelOps.dropAlpha(image.pixels) : image.pixels
        if status == 0 {
            status = samples.withUnsafeBytes { raw in
                spng_encode_image(
                    ctx, raw.baseAddress, raw.count, Int32(SPNG_FMT_PNG.rawValue),
                    Int32(SPNG_ENCODE_FINALIZE.rawValue))
            }
        }
        var length = 0
        var bufferError: Int32 = 0
        guard status == 0, let buffer = spng_get_png_buffer(ctx, &length, &bufferError) else {
            let message = String(cString: spng_strerror(status != 0 ? status : bufferError))
            throw ImageCodingError.encodingFailed(format: format, detail: message)
        }
        defer { free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
