// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CAvif
import Foundation

/// AVIF decoding through libavif (AV1 by dav1d): the primary item, or an image sequence as an
/// animation (its frames decoded on demand); alpha (premultiplied alpha made straight); 10- and
/// 12-bit samples rounded to 8 bits by libavif's YUV to RGB conversion. libavif 0.11 only
/// reports `irot` and `imir`, so they are applied here; `clap` is not applied (neither does
/// avifdec 0.11). A sequence loops forever, as browsers play it (libavif 0.11 does not read the
/// edit list's repetitions).
///
/// Before libavif sees a file, ``AVIFContainerRepair`` gives a last box of size 0 its size and
/// turns tracks that hold no pictures (audio, a depth map) into `free` boxes: libavif 0.11
/// refuses the first two and takes a depth track for alpha.
enum AVIFCodec {
    private static let format = ImageFileFormat.AVIF

    /// libavif's own pixel limit (`AVIF_DEFAULT_IMAGE_SIZE_LIMIT`), which it refuses to raise.
    private static let libraryPixelLimit = 16384 * 16384

    /// Whether libavif has dav1d: the AV1 decoder that takes libavif's pixel limit as its frame
    /// size limit, so that AV1 data declaring a larger frame than its container is refused.
    private static let hasDav1d = avifCodecName(AVIF_CODEC_CHOICE_DAV1D, avifCodecFlags(AVIF_CODEC_FLAG_CAN_DECODE.rawValue)) != nil

    /// What an image sequence's track says, without decoding a frame.
    struct Sequence {
        var width: Int
        var height: Int
        var durations: [TimeInterval]
        var hasAlpha: Bool
        var colorSpace: SourceColorSpace
    }

    /// The upright size, frames, alpha and colour space from the container's boxes: no AV1 data
    /// is decoded.
    static func header(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions) throws -> ImageHeader {
        if let repaired = AVIFContainerRepair.repaired(bytes) {
            return try repaired.withUnsafeBytes { try header($0, options: options) }
        }
        let limits = DecodingLimits.forHeader(options, format: format)
        if !options.onlyFirstFrame, let sequence = try sequence(bytes, limits: limits) {
            var found = ImageHeader(
                storedWidth: sequence.width, height: sequence.height, hasAlpha: sequence.hasAlpha, colorSpace: sequence.colorSpace)
            found.durations = sequence.durations
            return found
        }
        return try withParsedFile(bytes, limits: limits) { decoder, image in
            var found = ImageHeader(
                storedWidth: Int(image.pointee.width), height: Int(image.pointee.height),
                orientation: transform(of: image.pointee).orientation,
                hasAlpha: decoder.pointee.alphaPresent != AVIF_FALSE, colorSpace: colorSpace(of: image.pointee))
            // irot and imir are not EXIF orientation: a decode reports none.
            found.orientation = .up
            return found
        }
    }

    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions,
        target decodingTarget: DecodingTarget?
    ) throws -> DecodedImage {
        if let repaired = AVIFContainerRepair.repaired(bytes) {
            return try repaired.withUnsafeBytes { try decode($0, options: options, target: decodingTarget) }
        }
        let limits = DecodingLimits(options, format: format)
        if !options.onlyFirstFrame, let sequence = try sequence(bytes, limits: limits) {
            let data = Data(bytes)
            var image = try OnDemandAnimation.decodedImage(
                canvasWidth: sequence.width, canvasHeight: sequence.height, durations: sequence.durations, loopCount: 0,
                hasAlpha: sequence.hasAlpha, orientation: .up, target: decodingTarget, preloadAll: options.preloadAll,
                limits: limits
            ) { try AVIFFrameReader(data: data, limits: limits) }
            image.colorSpace = sequence.colorSpace
            return image
        }
        return try withParsedFile(bytes, limits: limits) { decoder, _ in
            try decodeFirstImage(decoder, limits: limits, target: decodingTarget, bytes: bytes)
        }
    }

    /// The track of an image sequence of more than one frame, `nil` for any other file.
    private static func sequence(_ bytes: UnsafeRawBufferPointer, limits: DecodingLimits) throws -> Sequence? {
        guard BMFFBox.sequence(in: bytes, 0..<bytes.count).contains(where: { $0.type == BMFFBox.fourCC("moov") }) else {
            return nil
        }
        return try withParsedFile(bytes, limits: limits, source: AVIF_DECODER_SOURCE_TRACKS) { decoder, image in
            let count = Int(decoder.pointee.imageCount)
            guard count > 1 else { return nil }
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            try limits.check(width: width, height: height, frameCount: count)
            let durations = (0..<count).map { index in
                var timing = avifImageTiming()
                let known = avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK
                return FrameDelay.duration(seconds: known ? timing.duration : 0)
            }
            return Sequence(
                width: width, height: height, durations: durations, hasAlpha: decoder.pointee.alphaPresent != AVIF_FALSE,
                colorSpace: colorSpace(of: image.pointee))
        }
    }

    /// A libavif decoder set up to read `bytes` from `source` (the primary item or the tracks,
    /// as libavif picks by default); the caller destroys it.
    static func makeDecoder(
        _ bytes: UnsafeRawBufferPointer, source: avifDecoderSource = AVIF_DECODER_SOURCE_AUTO
    ) throws -> UnsafeMutablePointer<avifDecoder> {
        try CodecLibrary.avif.load(for: format)
        guard let decoder = avifDecoderCreate() else { throw corrupted("libavif could not start") }
        if hasDav1d { decoder.pointee.codecChoice = AVIF_CODEC_CHOICE_DAV1D }
        // Files from encoders that left out `pixi` (libheif before 1.12) or the alpha item's
        // `ispe` (cavif before avif-serialize 0.7.4) decode fine; an invalid `clap` is refused.
        decoder.pointee.strictFlags = avifStrictFlags(AVIF_STRICT_CLAP_VALID.rawValue)
        // Metadata is not read: EXIF orientation does not apply to HEIF images.
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
        decoder.pointee.requestedSource = source
        do {
            try check(
                avifDecoderSetIOMemory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count),
                decoder, bytes)
            try check(avifDecoderParse(decoder), decoder, bytes)
        } catch {
            avifDecoderDestroy(decoder)
            throw error
        }
        return decoder
    }

    /// Parses the container and calls `body` with the decoder and its image header, whose size
    /// is checked against `limits`.
    private static func withParsedFile<Result>(
        _ bytes: UnsafeRawBufferPointer, limits: DecodingLimits, source: avifDecoderSource = AVIF_DECODER_SOURCE_AUTO,
        _ body: (UnsafeMutablePointer<avifDecoder>, UnsafeMutablePointer<avifImage>) throws -> Result
    ) throws -> Result {
        let decoder = try makeDecoder(bytes, source: source)
        defer { avifDecoderDestroy(decoder) }
        guard let header = decoder.pointee.image else { throw corrupted("libavif returned no image") }
        try limits.check(width: Int(header.pointee.width), height: Int(header.pointee.height))
        return try body(decoder, header)
    }

    /// The colour space the image's `colr` boxes declare (an ICC profile wins over `nclx`).
    private static func colorSpace(of image: avifImage) -> SourceColorSpace {
        image.icc.size > 0 && image.icc.data != nil
            ? .icc(Data(bytes: image.icc.data, count: image.icc.size))
            : .fromCICP(primaries: Int(image.colorPrimaries), transfer: Int(image.transferCharacteristics))
    }

    /// Decodes the next image of `decoder` (its frame size limit set from `limits`) to RGBA8,
    /// straight alpha: the image and its pixels.
    static func nextImage(
        _ decoder: UnsafeMutablePointer<avifDecoder>, limits: DecodingLimits, bytes: UnsafeRawBufferPointer
    ) throws -> (image: UnsafeMutablePointer<avifImage>, pixels: [UInt8]) {
        // dav1d is started with the first frame and takes this as its frame size limit.
        decoder.pointee.imageSizeLimit = UInt32(min(limits.maxPixelCount, libraryPixelLimit))
        try check(avifDecoderNextImage(decoder), decoder, bytes)
        guard let image = decoder.pointee.image else { throw corrupted("libavif returned no image") }
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        try limits.check(width: width, height: height)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.rowBytes = UInt32(width * 4)
        var conversion = AVIF_RESULT_OK
        let pixels = PixelBuffer.make(count: width * height * 4) { out in
            rgb.pixels = out
            conversion = avifImageYUVToRGB(image, &rgb)
        }
        guard conversion == AVIF_RESULT_OK else { throw corrupted(String(cString: avifResultToString(conversion))) }
        return (image, pixels)
    }

    private static func decodeFirstImage(
        _ decoder: UnsafeMutablePointer<avifDecoder>, limits: DecodingLimits, target decodingTarget: DecodingTarget?,
        bytes: UnsafeRawBufferPointer
    ) throws -> DecodedImage {
        let (image, pixels) = try nextImage(decoder, limits: limits, bytes: bytes)
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        let orientation = transform(of: image.pointee).orientation
        let target =
            decodingTarget?.fit(storedWidth: width, height: height, orientation: orientation)
            ?? (width: width, height: height)
        var decoded = DecodedImage(
            width: width, height: height, frames: [ImageFrame(pixels: pixels)],
            hasAlpha: image.pointee.alphaPlane != nil)
        decoded.colorSpace = colorSpace(of: image.pointee)
        decoded.resample(to: target.width, target.height)
        decoded.applyOrientation(orientation)
        // irot and imir are not EXIF orientation: the image reports none, as a HEIC does.
        decoded.orientation = .up
        return decoded
    }

    /// The `irot` and `imir` properties libavif found.
    private static func transform(of image: avifImage) -> HEIFTransform {
        let flags = image.transformFlags
        let turns = flags & avifTransformFlags(AVIF_TRANSFORM_IROT.rawValue) != 0 ? Int(image.irot.angle) : 0
        var mirror: HEIFTransform.Mirror?
        if flags & avifTransformFlags(AVIF_TRANSFORM_IMIR.rawValue) != 0 {
            mirror = image.imir.mode == 0 ? .topBottom : .leftRight
        }
        return HEIFTransform(anticlockwiseQuarterTurns: turns, mirror: mirror)
    }

    // MARK: Errors

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    private static func check(
        _ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>,
        _ bytes: UnsafeRawBufferPointer
    ) throws {
        guard result != AVIF_RESULT_OK else { return }
        if result == AVIF_RESULT_TRUNCATED_DATA || BMFFBox.isTruncated(bytes) {
            throw ImageCodingError.truncatedData(format: format)
        }
        throw corrupted(decoder.pointee.diag.message(for: result))
    }
}
