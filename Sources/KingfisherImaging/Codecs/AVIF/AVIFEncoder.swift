// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CAvif
import Foundation

/// AVIF encoding through libavif and its AV1 encoder (libaom in Debian's libavif 0.11, which also
/// has rav1e and SVT-AV1): 8-bit sRGB, full range; an alpha plane when the image has alpha.
enum AVIFEncoder {
    private static let format = ImageFileFormat.AVIF

    /// libavif's encoder speed, 0 (slowest, smallest) to 10. At 8 libaom 3.6 encodes a megapixel
    /// in 0.1-0.2 s on two cores; 7 takes about four times as long for files 10-20 % smaller.
    static let speed: Int32 = 8

    /// Encodes the first frame. `quality` (0…1, clamped) maps linearly onto AV1 quantizer 63…0;
    /// qualities of 0.9 and above keep full chroma resolution (4:4:4), lower ones use 4:2:0.
    /// `lossless` ignores the quality and stores RGB exactly (4:4:4, identity matrix, quantizer 0).
    /// The options' effort (0…9) sets the speed to 9 - effort (default ``speed``); their EXIF
    /// goes into an `Exif` item.
    static func encode(_ image: KingfisherImage, options: ImageEncodingOptions) throws -> Data {
        let (quality, lossless) = (options.compressionQuality, options.lossless)
        do {
            try CodecLibrary.avif.load(for: format)
        } catch {
            throw failure("libavif cannot be loaded: \(CodecLibrary.avif.loadError)")
        }
        guard avifCodecName(AVIF_CODEC_CHOICE_AUTO, avifCodecFlags(AVIF_CODEC_FLAG_CAN_ENCODE.rawValue)) != nil else {
            throw failure("this libavif has no AV1 encoder")
        }
        let clamped = min(max(quality, 0), 1)
        let yuvFormat = lossless || clamped >= 0.9 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let avif = avifImageCreate(UInt32(image.pixelWidth), UInt32(image.pixelHeight), 8, yuvFormat) else {
            throw failure("cannot create the image")
        }
        defer { avifImageDestroy(avif) }
        // The pixels are sRGB: the nclx box says so, as avifenc writes for PNG input.
        avif.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
        avif.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        avif.pointee.matrixCoefficients = avifMatrixCoefficients(
            lossless
                ? AVIF_MATRIX_COEFFICIENTS_IDENTITY
                : AVIF_MATRIX_COEFFICIENTS_BT601)
        avif.pointee.yuvRange = AVIF_RANGE_FULL
        if let exif = options.exif?.tiff, !exif.isEmpty {
            exif.withUnsafeBytes { avifImageSetMetadataExif(avif, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count) }
        }

        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, avif)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.rowBytes = UInt32(image.pixelWidth * 4)
        rgb.ignoreAlpha = image.hasAlpha ? AVIF_FALSE : AVIF_TRUE
        let converted = image.pixels.withUnsafeBufferPointer { pixels in
            // libavif only reads the RGB pixels.
            rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress)
            return avifImageRGBToYUV(avif, &rgb)
        }
        guard converted == AVIF_RESULT_OK else { throw failure(String(cString: avifResultToString(converted))) }

        guard let encoder = avifEncoderCreate() else { throw failure("cannot create the encoder") }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.maxThreads = Int32(min(ProcessInfo.processInfo.activeProcessorCount, 8))
        encoder.pointee.speed = options.effort.map { Int32(9 - $0) } ?? speed
        let quantizer =
            lossless
            ? Int32(AVIF_QUANTIZER_LOSSLESS)
            : Int32(((1 - clamped) * CGFloat(AVIF_QUANTIZER_WORST_QUALITY)).rounded())
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        let result = avifEncoderWrite(encoder, avif, &output)
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw failure(encoder.pointee.diag.message(for: result))
        }
        return Data(bytes: bytes, count: output.size)
    }

    private static func failure(_ detail: String) -> ImageCodingError {
        .encodingFailed(format: format, detail: detail)
    }
}
