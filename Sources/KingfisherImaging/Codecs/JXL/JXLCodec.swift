// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CJxl
import Foundation

/// JPEG XL through libjxl: a bare codestream or the container; the first frame of an animation
/// (composited by libjxl); upright (libjxl applies the codestream's orientation); straight alpha;
/// every bit depth rounded to 8 bits by libjxl. libjxl 0.7 has no reduced-resolution decode (its
/// progressive flush still fills a full-size buffer), so a downsampled decode resamples the image.
enum JXLCodec {
    private static let format = ImageFileFormat.JXL
    private static let success = JXL_DEC_SUCCESS

    /// The upright size, alpha and colour space from the codestream's headers: no pixel is
    /// decoded.
    static func header(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions) throws -> ImageHeader {
        try CodecLibrary.jxl.load(for: format)
        guard let decoder = JxlDecoderCreate(nil) else { throw corrupted("libjxl could not start") }
        defer { JxlDecoderDestroy(decoder) }
        let (info, colorSpace) = try readHeaders(
            decoder, bytes, decodingPixels: false, limits: DecodingLimits.forHeader(options, format: format))
        let (width, height) = uprightSize(info)
        return ImageHeader(storedWidth: width, height: height, hasAlpha: info.alpha_bits > 0, colorSpace: colorSpace)
    }

    /// Reads the basic information and colour encoding, checking the size against `limits`; with
    /// `decodingPixels`, up to where libjxl asks for the output buffer.
    private static func readHeaders(
        _ decoder: OpaquePointer, _ bytes: UnsafeRawBufferPointer, decodingPixels: Bool, limits: DecodingLimits
    ) throws -> (info: JxlBasicInfo, colorSpace: SourceColorSpace) {
        let events =
            JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | (decodingPixels ? JXL_DEC_FULL_IMAGE.rawValue : 0)
        // The input is not closed, so that data ending early reads as "needs more input".
        guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == success,
            JxlDecoderSetKeepOrientation(decoder, JXL_FALSE) == success,
            JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) == success,
            JxlDecoderSetInput(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == success
        else { throw corrupted("libjxl could not start") }
        var info = JxlBasicInfo()
        while true {
            switch JxlDecoderProcessInput(decoder) {
            case JXL_DEC_BASIC_INFO:
                guard JxlDecoderGetBasicInfo(decoder, &info) == success else { throw corrupted("no basic information") }
                try limits.check(width: Int(info.xsize), height: Int(info.ysize))
            case JXL_DEC_COLOR_ENCODING:
                let colorSpace = Self.colorSpace(decoder, info: info)
                guard decodingPixels else { return (info, colorSpace) }
                switch JxlDecoderProcessInput(decoder) {
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER: return (info, colorSpace)
                case let status: throw failure(status, bytes)
                }
            case let status:
                throw failure(status, bytes)
            }
        }
    }

    /// Orientations 5 to 8 swap the sides: the output is upright.
    private static func uprightSize(_ info: JxlBasicInfo) -> (width: Int, height: Int) {
        let swapped = info.orientation.rawValue >= JXL_ORIENT_TRANSPOSE.rawValue
        return (Int(swapped ? info.ysize : info.xsize), Int(swapped ? info.xsize : info.ysize))
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        try CodecLibrary.jxl.load(for: format)
        guard let decoder = JxlDecoderCreate(nil) else { throw corrupted("libjxl could not start") }
        defer { JxlDecoderDestroy(decoder) }
        let (info, colorSpace) = try readHeaders(
            decoder, bytes, decodingPixels: true, limits: DecodingLimits(options, format: format))
        let (width, height) = uprightSize(info)
        var pixelFormat = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var size = 0
        guard JxlDecoderImageOutBufferSize(decoder, &pixelFormat, &size) == success, size == width * height * 4 else {
            throw corrupted("unexpected output size")
        }
        let pixels = try PixelBuffer.make(count: size) { out in
            guard JxlDecoderSetImageOutBuffer(decoder, &pixelFormat, out, size) == success else {
                throw corrupted("libjxl refused the output buffer")
            }
            let status = JxlDecoderProcessInput(decoder)
            guard status == JXL_DEC_FULL_IMAGE else { throw failure(status, bytes) }
        }
        var image = DecodedImage(
            width: width, height: height, frames: [ImageFrame(pixels: pixels)],
            hasAlpha: info.alpha_bits > 0)
        image.colorSpace = colorSpace
        if let size = target?.fit(width: width, height: height) {
            image.resample(to: size.width, size.height)
        }
        return image
    }

    /// The colour space of the pixels libjxl outputs. An XYB-coded image (lossy, not in its
    /// original space) is output in its original space when that is an encoded one, else in a
    /// space the decoder is asked for: sRGB rather than libjxl's default linear sRGB, which 8-bit
    /// samples would band.
    private static func colorSpace(_ decoder: OpaquePointer, info: JxlBasicInfo) -> SourceColorSpace {
        let isGray = info.num_color_channels == 1
        if info.uses_original_profile == JXL_FALSE,
            JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, nil) != success
        {
            var sRGB = JxlColorEncoding()
            sRGB.color_space = isGray ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
            sRGB.white_point = JXL_WHITE_POINT_D65
            sRGB.primaries = JXL_PRIMARIES_SRGB
            sRGB.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
            sRGB.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
            _ = JxlDecoderSetPreferredColorProfile(decoder, &sRGB)
        }
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == success,
            encoding.white_point == JXL_WHITE_POINT_D65, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB,
            encoding.color_space == JXL_COLOR_SPACE_GRAY
                || (encoding.color_space == JXL_COLOR_SPACE_RGB && encoding.primaries == JXL_PRIMARIES_SRGB)
        {
            return .sRGB
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == success, size > 0 else {
            return .sRGB
        }
        var profile = Data(count: size)
        let status = profile.withUnsafeMutableBytes {
            JxlDecoderGetColorAsICCProfile(
                decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA,
                $0.baseAddress?.assumingMemoryBound(to: UInt8.self), size)
        }
        return status == success ? .icc(profile) : .sRGB
    }

    // MARK: Errors

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    private static func failure(_ status: JxlDecoderStatus, _ bytes: UnsafeRawBufferPointer) -> ImageCodingError {
        // The container's signature box; a bare codestream starts with FF 0A instead.
        let isContainer = bytes.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        switch status {
        case JXL_DEC_NEED_MORE_INPUT:
            return .truncatedData(format: format)
        case JXL_DEC_ERROR where isContainer && BMFFBox.isTruncated(bytes):
            return .truncatedData(format: format)
        case JXL_DEC_ERROR:
            return corrupted("libjxl cannot decode the data")
        case JXL_DEC_SUCCESS:
            return corrupted("the file holds no image")
        default:
            return corrupted("libjxl stopped with status \(status.rawValue)")
        }
    }
}
