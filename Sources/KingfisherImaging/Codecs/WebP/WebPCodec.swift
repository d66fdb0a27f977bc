// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CWebP
import Foundation

/// WebP through libwebp: lossy, lossless, alpha, and animations (composited by libwebp's
/// animation decoder with blending and disposal). Downsampling uses libwebp's scaled decode.
enum WebPCodec {
    private static let format = ImageFileFormat.WebP

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    /// Whether the RIFF header announces more bytes than there are.
    private static func isTruncated(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 8 else { return true }
        let declared = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        return declared + 8 > bytes.count
    }

    private static func error(_ status: VP8StatusCode, bytes: UnsafeRawBufferPointer) -> ImageCodingError {
        if status == VP8_STATUS_NOT_ENOUGH_DATA || isTruncated(bytes) {
            return .truncatedData(format: format)
        }
        let detail: String
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: detail = "out of memory"
        case VP8_STATUS_INVALID_PARAM: detail = "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: detail = "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: detail = "unsupported feature"
        case VP8_STATUS_SUSPENDED: detail = "decoding suspended"
        case VP8_STATUS_USER_ABORT: detail = "decoding aborted"
        default: detail = "libwebp status \(status.rawValue)"
        }
        return corrupted(detail)
    }

    /// What the RIFF chunks say: the canvas, alpha, the frame table of an animation, EXIF
    /// orientation and ICC profile; no pixel is decoded.
    static func header(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions) throws -> ImageHeader {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw error(status, bytes: bytes) }
        let limits = DecodingLimits.forHeader(options, format: format)
        try limits.check(width: Int(features.width), height: Int(features.height))
        let orientation =
            metadataChunk(bytes, "EXIF", flag: 0x08) { EXIFReader.orientation(tiff: $0, maxByteCount: options.maxEXIFByteCount) }
            ?? .up
        var found = ImageHeader(
            storedWidth: Int(features.width), height: Int(features.height), orientation: orientation,
            hasAlpha: features.has_alpha != 0 || features.has_animation != 0,
            colorSpace: metadataChunk(bytes, "ICCP", flag: 0x20) { SourceColorSpace.icc(Data($0)) } ?? .sRGB)
        if features.has_animation != 0 {
            let (durations, loopCount) = try frameTable(bytes)
            found.durations = options.onlyFirstFrame ? [durations[0]] : durations
            try limits.check(width: Int(features.width), height: Int(features.height), frameCount: found.durations.count)
            found.loopCount = found.durations.count > 1 ? loopCount : 0
        }
        return found
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        let input = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(input, bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw error(status, bytes: bytes) }
        let orientation =
            metadataChunk(bytes, "EXIF", flag: 0x08) {
                EXIFReader.orientation(tiff: $0, maxByteCount: options.maxEXIFByteCount)
            } ?? .up
        var image: DecodedImage
        if features.has_animation != 0 {
            image = try decodeAnimation(
                bytes, features: features, orientation: orientation, options: options,
                target: target)
        } else {
            image = try decodeStill(
                bytes, features: features, orientation: orientation, options: options,
                target: target)
            image.applyOrientation(orientation)
        }
        if let profile = metadataChunk(bytes, "ICCP", flag: 0x20, { Data($0) }) { image.colorSpace = .icc(profile) }
        return image
    }

    private static func decodeStill(
        _ bytes: UnsafeRawBufferPointer, features: WebPBitstreamFeatures, orientation: ImageOrientation,
        options: ImageCreatingOptions, target decodingTarget: DecodingTarget?
    ) throws -> DecodedImage {
        let width = Int(features.width)
        let height = Int(features.height)
        try DecodingLimits(options, format: format).check(width: width, height: height)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw corrupted("libwebp version mismatch") }
        // Lossy frames filter in a second thread while the next rows decode (as libvips asks).
        config.options.use_threads = 1
        let target =
            decodingTarget?.fit(storedWidth: width, height: height, orientation: orientation)
            ?? (width: width, height: height)
        if target != (width, height) {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(target.width)
            config.options.scaled_height = Int32(target.height)
        }
        let size = target.width * target.height * 4
        var status = VP8_STATUS_OK
        let pixels = PixelBuffer.make(count: size) { out in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = out
            config.output.u.RGBA.stride = Int32(target.width * 4)
            config.output.u.RGBA.size = size
            status = WebPDecode(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            WebPFreeDecBuffer(&config.output)
        }
        guard status == VP8_STATUS_OK else { throw error(status, bytes: bytes) }
        return DecodedImage(
            width: target.width, height: target.height, frames: [ImageFrame(pixels: pixels)],
            hasAlpha: features.has_alpha != 0)
    }

    /// An animation: its frame table read by the demuxer (no pixel decoded), the first frame
    /// decoded now and the rest on demand unless `preloadAll` asks for all of them.
    private static func decodeAnimation(
        _ bytes: UnsafeRawBufferPointer, features: WebPBitstreamFeatures, orientation: ImageOrientation,
        options: ImageCreatingOptions, target: DecodingTarget?
    ) throws -> DecodedImage {
        // libwebp allocates the whole canvas when the decoder is made: check its size (from the
        // VP8X header) first.
        let limits = DecodingLimits(options, format: format)
        let width = Int(features.width)
        let height = Int(features.height)
        try limits.check(width: width, height: height)
        let (durations, loopCount) = try frameTable(bytes)
        let frames = options.onlyFirstFrame ? [durations[0]] : durations
        try limits.check(width: width, height: height, frameCount: frames.count)
        let data = Data(bytes)
        return try OnDemandAnimation.decodedImage(
            canvasWidth: width, canvasHeight: height, durations: frames, loopCount: loopCount, hasAlpha: true,
            orientation: orientation, target: target, preloadAll: options.preloadAll,
            limits: limits
        ) { try WebPFrameReader(data: data) }
    }

    /// Every frame's duration and the loop count, from the demuxer's frame table.
    private static func frameTable(_ bytes: UnsafeRawBufferPointer) throws -> (durations: [TimeInterval], loopCount: Int) {
        var data = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else {
            throw isTruncated(bytes) ? .truncatedData(format: format) : corrupted("invalid animation")
        }
        defer { WebPDemuxDelete(demuxer) }
        var durations: [TimeInterval] = []
        var iterator = WebPIterator()
        if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
            repeat {
                durations.append(FrameDelay.duration(seconds: TimeInterval(iterator.duration) / 1000))
            } while WebPDemuxNextFrame(&iterator) != 0
            WebPDemuxReleaseIterator(&iterator)
        }
        guard !durations.isEmpty else { throw corrupted("the animation has no frames") }
        return (durations, Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)))
    }

    /// `read` of the metadata chunk `fourCC` of an extended (VP8X) file whose header flags
    /// announce it (`flag`: 0x20 ICC profile, 0x08 EXIF); `nil` when there is none.
    static func metadataChunk<T>(
        _ bytes: UnsafeRawBufferPointer, _ fourCC: String, flag: UInt8, _ read: (UnsafeRawBufferPointer) -> T
    ) -> T? {
        guard bytes.count > 30, Array(bytes[12..<16]) == Array("VP8X".utf8), bytes[20] & flag != 0 else { return nil }
        var data = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        return read(UnsafeRawBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
    }

    // MARK: Encoding

    /// Encodes as WebP: lossy at the options' quality (0…1, clamped) or lossless (keeping the
    /// exact colour of fully transparent pixels), with the method their effort gives (0…9 as
    /// 0…6; default libwebp's 4); an animated image becomes an animated WebP with its frame
    /// durations and loop count.
    static func encode(_ image: KingfisherImage, options: ImageEncodingOptions) throws -> Data {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw encodingFailure("libwebp version mismatch") }
        config.quality = Float(min(max(options.compressionQuality, 0), 1) * 100)
        config.lossless = options.lossless ? 1 : 0
        config.exact = options.lossless ? 1 : 0
        if let effort = options.effort { config.method = Int32((effort * 6 + 4) / 9) }
        if image.isAnimated { return try encodeAnimation(image, config: &config) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        try withPicture(image.pixels, width: image.pixelWidth, height: image.pixelHeight) { picture in
            picture.writer = WebPMemoryWrite
            try withUnsafeMutablePointer(to: &writer) { writerPointer in
                picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
                guard WebPEncode(&config, &picture) != 0 else {
                    throw encodingFailure("libwebp error \(picture.error_code.rawValue)")
                }
            }
        }
        return Data(bytes: writer.mem, count: writer.size)
    }

    private static func encodingFailure(_ detail: String) -> ImageCodingError {
        .encodingFailed(format: format, detail: detail)
    }

    /// Runs `body` with a libwebp picture holding `pixels`, freed afterwards.
    private static func withPicture(
        _ pixels: [UInt8], width: Int, height: Int, _ body: (inout WebPPicture) throws -> Void
    ) throws {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw encodingFailure("libwebp version mismatch") }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        defer { WebPPictureFree(&picture) }
        let imported = pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
        guard imported != 0 else { throw encodingFailure("cannot import the pixels") }
        try body(&picture)
    }

    private static func encodeAnimation(_ image: KingfisherImage, config: inout WebPConfig) throws -> Data {
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else { throw encodingFailure("libwebp version mismatch") }
        encoderOptions.anim_params.loop_count = Int32(image.loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(image.pixelWidth), Int32(image.pixelHeight), &encoderOptions) else {
            throw encodingFailure("cannot create the animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp: Int32 = 0
        // Frame by frame: an animation decoded on demand is never held whole.
        for index in 0..<image.frameCount {
            let frame = try image.frame(at: index)
            try withPicture(frame.pixels, width: image.pixelWidth, height: image.pixelHeight) { picture in
                guard WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                    throw encodingFailure(String(cString: WebPAnimEncoderGetError(encoder)))
                }
            }
            timestamp += Int32((frame.duration * 1000).rounded())
        }
        var output = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0,
            WebPAnimEncoderAssemble(encoder, &output) != 0
        else {
            throw encodingFailure(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPDataClear(&output) }
        return Data(bytes: output.bytes, count: output.size)
    }
}
