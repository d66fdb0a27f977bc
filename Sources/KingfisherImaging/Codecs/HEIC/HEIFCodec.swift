// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CHeif
import Foundation

/// HEIF through libheif (HEVC by libde265): the primary image upright (libheif applies `clap`,
/// `irot` and `imir`; EXIF orientation in the file is not applied on top, as the HEIF rules say),
/// grids, alpha, premultiplied alpha made straight, 10- and 12-bit samples rounded to 8 bits.
/// A downsampled decode uses the file's thumbnail when one covers the target.
enum HEIFCodec {
    private static let format = ImageFileFormat.HEIC

    /// libheif's per-side limit by default (its `MAX_IMAGE_WIDTH`); a smaller pixel limit lowers it.
    private static let librarySideLimit = 32768

    /// `heif_init` registers libheif's decoders; it is reference counted and never undone, as
    /// libheif asks of a process that keeps using it.
    private static let libraryInitialised: Bool = {
        heif_init(nil).code == heif_error_Ok
    }()

    /// The primary image's upright size, alpha and colour space, from the file's boxes: no
    /// pixel is decoded.
    static func header(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions) throws -> ImageHeader {
        try withPrimaryImage(bytes, limits: DecodingLimits.forHeader(options, format: format)) { primary, width, height in
            ImageHeader(
                storedWidth: width, height: height, hasAlpha: heif_image_handle_has_alpha_channel(primary) != 0,
                colorSpace: colorSpace(of: primary))
        }
    }

    /// Reads the file's boxes and calls `body` with the primary image and its upright size,
    /// checked against `limits`.
    private static func withPrimaryImage<Result>(
        _ bytes: UnsafeRawBufferPointer, limits: DecodingLimits,
        _ body: (_ primary: OpaquePointer, _ width: Int, _ height: Int) throws -> Result
    ) throws -> Result {
        try CodecLibrary.heif.load(for: format)
        guard libraryInitialised, let context = heif_context_alloc() else { throw corrupted("libheif could not start") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, Int32(min(librarySideLimit, limits.maxPixelCount)))
        try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), bytes)
        var primaryID: heif_item_id = 0
        try check(heif_context_get_primary_image_ID(context, &primaryID), bytes)
        var primaryHandle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &primaryHandle), bytes)
        guard let primary = primaryHandle else { throw corrupted("no primary image") }
        defer { heif_image_handle_release(primary) }
        let width = Int(heif_image_handle_get_width(primary))
        let height = Int(heif_image_handle_get_height(primary))
        try checkSizes(of: primary, item: primaryID, width: width, height: height, limits: limits, bytes: bytes)
        return try body(primary, width, height)
    }

    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions,
        target decodingTarget: DecodingTarget?
    ) throws -> DecodedImage {
        let limits = DecodingLimits(options, format: format)
        return try withPrimaryImage(bytes, limits: limits) { primary, width, height in
            try decode(primary, width: width, height: height, limits: limits, target: decodingTarget, bytes: bytes)
        }
    }

    private static func decode(
        _ primary: OpaquePointer, width: Int, height: Int, limits: DecodingLimits, target decodingTarget: DecodingTarget?,
        bytes: UnsafeRawBufferPointer
    ) throws -> DecodedImage {
        var target = (width: width, height: height)
        var thumbnail: OpaquePointer?
        defer { if let thumbnail { heif_image_handle_release(thumbnail) } }
        if let decodingTarget {
            target = decodingTarget.fit(width: width, height: height)
            thumbnail = self.thumbnail(of: primary, covering: target, limits: limits, bytes: bytes)
        }
        var image = try decodePixels(thumbnail ?? primary, limits: limits, bytes: bytes)
        image.colorSpace = colorSpace(of: primary)
        if let decodingTarget {
            // A damaged primary image may decode to another size than its header's: fit that.
            if thumbnail == nil && (image.width, image.height) != (width, height) {
                target = decodingTarget.fit(width: image.width, height: image.height)
            }
            image.resample(to: target.width, target.height)
        }
        return image
    }

    /// Checks the upright size and what libheif allocates before cropping or composing: the coded
    /// size (`ispe`) and, for a grid or an overlay, the canvas its data declares.
    private static func checkSizes(
        of handle: OpaquePointer, item: heif_item_id, width: Int, height: Int, limits: DecodingLimits,
        bytes: UnsafeRawBufferPointer
    ) throws {
        try limits.check(width: width, height: height)
        let ispe = (width: Int(heif_image_handle_get_ispe_width(handle)), height: Int(heif_image_handle_get_ispe_height(handle)))
        if ispe.width > 0 && ispe.height > 0 { try limits.check(width: ispe.width, height: ispe.height) }
        switch HEIFDerivedImage.canvas(ofItem: item, in: bytes) {
        case .none:
            break
        case .size(let canvasWidth, let canvasHeight):
            try limits.check(width: canvasWidth, height: canvasHeight)
            // A derived image's ispe is its output size (ISO/IEC 23008-12 6.6.2); libheif 1.15
            // would compose the canvas and return it instead of the size its header gave.
            if ispe.width > 0 && (canvasWidth, canvasHeight) != (ispe.width, ispe.height) {
                throw corrupted("the image's canvas is \(canvasWidth)x\(canvasHeight), its ispe says \(ispe.width)x\(ispe.height)")
            }
        case .unreadable:
            // Unchecked, the canvas could be any size up to libheif's 32768 x 32768.
            throw corrupted("the grid or overlay's size cannot be read")
        }
    }

    /// The smallest thumbnail at least as large as `target` (upright) with the primary image's
    /// aspect ratio and alpha, if any; the caller releases it.
    private static func thumbnail(
        of primary: OpaquePointer, covering target: (width: Int, height: Int), limits: DecodingLimits,
        bytes: UnsafeRawBufferPointer
    ) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        let width = Int(heif_image_handle_get_width(primary))
        let height = Int(heif_image_handle_get_height(primary))
        let hasAlpha = heif_image_handle_has_alpha_channel(primary) != 0
        var best: (handle: OpaquePointer, area: Int)?
        for id in ids.prefix(max(0, min(listed, count))) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let w = Int(heif_image_handle_get_width(handle))
            let h = Int(heif_image_handle_get_height(handle))
            let fits =
                w >= target.width && h >= target.height && w <= width && h <= height
                // Same shape as the primary image, to the pixel: w / h == width / height.
                && abs(w * height - h * width) <= max(width, height)
                && (heif_image_handle_has_alpha_channel(handle) != 0) == hasAlpha
                && (try? checkSizes(of: handle, item: id, width: w, height: h, limits: limits, bytes: bytes)) != nil
            if fits && w * h < (best?.area ?? .max) {
                if let previous = best?.handle { heif_image_handle_release(previous) }
                best = (handle, w * h)
            } else {
                heif_image_handle_release(handle)
            }
        }
        return best?.handle
    }

    /// Decodes `handle` to upright, straight-alpha RGBA8. Deeper samples are asked for as 16-bit
    /// and rounded here: libheif's own reduction to 8 bits truncates the YCbCr planes.
    private static func decodePixels(_ handle: OpaquePointer, limits: DecodingLimits, bytes: UnsafeRawBufferPointer) throws -> DecodedImage
    {
        let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
        guard let options = heif_decoding_options_alloc() else { throw corrupted("libheif could not start") }
        defer { heif_decoding_options_free(options) }
        var decoded: OpaquePointer?
        try check(
            heif_decode_image(
                handle, &decoded, heif_colorspace_RGB,
                deep ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA, options), bytes)
        guard let decoded else { throw corrupted("libheif returned no image") }
        defer { heif_image_release(decoded) }
        let width = Int(heif_image_get_primary_width(decoded))
        let height = Int(heif_image_get_primary_height(decoded))
        try limits.check(width: width, height: height)
        var stride: Int32 = 0
        let bytesPerPixel = deep ? 8 : 4
        guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
            Int(stride) >= width * bytesPerPixel
        else { throw corrupted("libheif returned no interleaved plane") }
        let bits = deep ? Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved)) : 8
        guard (8...16).contains(bits) else { throw corrupted("\(bits)-bit samples") }
        var pixels = PixelBuffer.make(count: width * height * 4) { out in
            for y in 0..<height {
                let row = plane + y * Int(stride)
                let destination = out + y * width * 4
                if deep {
                    reduce(UnsafeRawPointer(row), bits: bits, count: width * 4, into: destination)
                } else {
                    destination.update(from: row, count: width * 4)
                }
            }
        }
        let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        if hasAlpha && heif_image_handle_is_premultiplied_alpha(handle) != 0 {
            AlphaWeighting.unpremultiply(&pixels)
        }
        return DecodedImage(width: width, height: height, frames: [ImageFrame(pixels: pixels)], hasAlpha: hasAlpha)
    }

    /// Rounds `count` little-endian samples of `bits` significant bits to 8 bits.
    private static func reduce(_ source: UnsafeRawPointer, bits: Int, count: Int, into destination: UnsafeMutablePointer<UInt8>) {
        let maximum = UInt32(1 << bits - 1)
        for index in 0..<count {
            let sample = min(UInt32(UInt16(littleEndian: source.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))), maximum)
            destination[index] = UInt8((sample * 255 + maximum / 2) / maximum)
        }
    }

    /// The colour space the primary image's `colr` box declares (an ICC profile wins over `nclx`).
    private static func colorSpace(of handle: OpaquePointer) -> SourceColorSpace {
        switch heif_image_handle_get_color_profile_type(handle) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            guard size > 0 else { return .sRGB }
            var profile = Data(count: size)
            let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            return error.code == heif_error_Ok ? .icc(profile) : .sRGB
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return .sRGB }
            defer { heif_nclx_color_profile_free(nclx) }
            return .fromCICP(
                primaries: Int(nclx.pointee.color_primaries.rawValue),
                transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
        default:
            return .sRGB
        }
    }

    // MARK: Errors

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    private static func check(_ error: heif_error, _ bytes: UnsafeRawBufferPointer) throws {
        guard error.code != heif_error_Ok else { return }
        if error.subcode == heif_suberror_End_of_data || BMFFBox.isTruncated(bytes) {
            throw ImageCodingError.truncatedData(format: format)
        }
        let message = error.message.map { String(cString: $0) } ?? ""
        throw corrupted(message.isEmpty ? "libheif error \(error.code.rawValue).\(error.subcode.rawValue)" : message)
    }
}
