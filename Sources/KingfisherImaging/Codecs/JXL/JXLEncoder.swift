// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CJxl
import Foundation

/// JPEG XL encoding through libjxl (opened on first use): 8-bit sRGB, an alpha channel when the
/// image has transparency, the first frame of an animation; lossy at a distance the quality
/// gives (as `cjxl` maps it), or lossless.
enum JXLEncoder {
    private static let format = ImageFileFormat.JXL

    /// Encodes the first frame. The options' quality (0…1) maps to a Butteraugli distance as
    /// cjxl's `--quality` does (0.9 → 1.0, the visually lossless default); `lossless` stores the
    /// pixels exactly; effort 0…9 is libjxl's 1…9 (default its 7). EXIF goes into an `Exif` box.
    static func encode(_ image: KingfisherImage, options: ImageEncodingOptions) throws -> Data {
        do {
            try CodecLibrary.jxl.load(for: format)
        } catch {
            throw failure("libjxl cannot be loaded: \(CodecLibrary.jxl.loadError)")
        }
        guard let encoder = JxlEncoderCreate(nil) else { throw failure("libjxl could not start") }
        defer { JxlEncoderDestroy(encoder) }
        let alpha = image.hasAlpha && !PixelOps.isOpaque(image.pixels)
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(image.pixelWidth)
        info.ysize = UInt32(image.pixelHeight)
        info.bits_per_sample = 8
        info.num_color_channels = 3
        info.num_extra_channels = alpha ? 1 : 0
        info.alpha_bits = alpha ? 8 : 0
        // Lossless needs the pixels' own colour space kept (no XYB).
        info.uses_original_profile = options.lossless ? JXL_TRUE : JXL_FALSE
        var colour = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&colour, JXL_FALSE)
        guard JxlEncoderSetBasicInfo(encoder, &info) == JXL_ENC_SUCCESS, JxlEncoderSetColorEncoding(encoder, &colour) == JXL_ENC_SUCCESS,
            let settings = JxlEncoderFrameSettingsCreate(encoder, nil)
        else { throw failure("libjxl refused the image's settings") }
        if options.lossless {
            guard JxlEncoderSetFrameLossless(settings, JXL_TRUE) == JXL_ENC_SUCCESS else { throw failure("libjxl refused lossless") }
        } else {
            guard JxlEncoderSetFrameDistance(settings, distance(quality: options.compressionQuality)) == JXL_ENC_SUCCESS else {
                throw failure("libjxl refused the distance")
            }
        }
        if let exif = options.exif?.tiff, !exif.isEmpty {
            // An `Exif` box: the TIFF header's offset in it (0: right after), then the block.
            let box = [UInt8](repeating: 0, count: 4) + exif
            guard JxlEncoderUseContainer(encoder, JXL_TRUE) == JXL_ENC_SUCCESS, JxlEncoderUseBoxes(encoder) == JXL_ENC_SUCCESS,
                JxlEncoderAddBox(encoder, "Exif", box, box.count, JXL_FALSE) == JXL_ENC_SUCCESS
            else { throw failure("libjxl refused the EXIF box") }
        }
        if let effort = options.effort {
            _ = JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(max(1, effort)))
        }
        let samples = alpha ? image.pixels : PixelOps.dropAlpha(image.pixels)
        var pixelFormat = JxlPixelFormat(num_channels: alpha ? 4 : 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let added = samples.withUnsafeBytes { JxlEncoderAddImageFrame(settings, &pixelFormat, $0.baseAddress, $0.count) }
        guard added == JXL_ENC_SUCCESS else { throw failure("libjxl refused the pixels") }
        JxlEncoderCloseInput(encoder)
        var output = [UInt8](repeating: 0, count: max(4096, samples.count / 8))
        var written = 0
        while true {
            let status = output.withUnsafeMutableBufferPointer { buffer -> JxlEncoderStatus in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.count - available
                return status
            }
            switch status {
            case JXL_ENC_SUCCESS:
                return Data(output[0..<written])
            case JXL_ENC_NEED_MORE_OUTPUT:
                output += [UInt8](repeating: 0, count: output.count)
            default:
                throw failure("libjxl failed while encoding")
            }
        }
    }

    /// cjxl's mapping of a 0…100 quality to a Butteraugli distance.
    static func distance(quality: CGFloat) -> Float {
        let q = Float(min(max(quality, 0), 1) * 100)
        return q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
    }

    private static func failure(_ detail: String) -> ImageCodingError {
        .encodingFailed(format: format, detail: detail)
    }
}
