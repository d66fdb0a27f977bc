// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CTiff
import Foundation

/// TIFF through libtiff, first page (IFD 0) only: every compression libtiff supports (none,
/// LZW, Deflate, PackBits, JPEG, …), strips or tiles, contiguous or planar samples.
///
/// Grey, RGB, palette and CMYK at 1 to 16 bits per sample, and CIE L*a*b* at 8 or 16, with or
/// without alpha (associated alpha divided out), are read as raw samples, so 16-bit values are
/// reduced to 8 bits exactly; L*a*b* (D50) goes to sRGB through LittleCMS, white adapted to
/// D65. Grey and RGB of 32-bit samples are shown by their range: an integer's whole range, a
/// float's SMinSampleValue to SMaxSampleValue, or 0 to 1 when the file does not say. Anything
/// else libtiff can render (YCbCr without JPEG, LogLuv, …) goes through its RGBA reader, which
/// keeps 8 bits of precision. The Orientation tag is applied; an
/// embedded ICC profile is passed on, colours untouched.
enum TIFFCodec {
    private static let format = ImageFileFormat.TIFF

    private static func corrupted(_ detail: String) -> ImageCodingError {
        .corruptedData(format: format, detail: detail)
    }

    /// The first directory's size, orientation, alpha and ICC profile: no strip or tile is read.
    static func header(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions) throws -> ImageHeader {
        try withFirstDirectory(bytes, limits: DecodingLimits.forHeader(options, format: format)) { handle, width, height in
            let tiff = handle.tiff
            let hasAlpha: Bool
            if let layout = try sampleLayout(tiff) {
                hasAlpha = layout.converter.alpha != nil
            } else {
                hasAlpha = extraSamples(tiff).firstKind.map { $0 != EXTRASAMPLE_UNSPECIFIED } ?? false
            }
            return ImageHeader(
                storedWidth: width, height: height, orientation: orientation(tiff), hasAlpha: hasAlpha,
                colorSpace: colorSpace(tiff))
        }
    }

    /// How many samples of a pixel follow its colour (ExtraSamples), and what the first is
    /// (`EXTRASAMPLE_*`; `nil` when there are none).
    private static func extraSamples(_ tiff: OpaquePointer) -> (count: Int, firstKind: Int32?) {
        var count: UInt16 = 0
        var kinds: UnsafePointer<UInt16>?
        guard kf_tiff_get_extra_samples(tiff, &count, &kinds) != 0, count > 0, let kinds else { return (0, nil) }
        return (Int(count), Int32(kinds[0]))
    }

    private static func orientation(_ tiff: OpaquePointer) -> ImageOrientation {
        ImageOrientation(rawValue: Int(field(tiff, TIFFTAG_ORIENTATION) ?? 1)) ?? .up
    }

    /// Opens the first directory, checking its size against `limits` before libtiff allocates
    /// anything for it, and calls `body` with it and the image size.
    private static func withFirstDirectory<Result>(
        _ bytes: UnsafeRawBufferPointer, limits: DecodingLimits, _ body: (TIFFHandle, _ width: Int, _ height: Int) throws -> Result
    ) throws -> Result {
        // Enough for any buffer libtiff needs for an image within the pixel limit (a strip of
        // 16-bit RGBA) or for a block of the file, and no more: hostile tags cannot make it
        // allocate gigabytes.
        let maxAllocation = max(16 << 20, bytes.count, limits.maxPixelCount > Int.max / 8 ? Int.max : limits.maxPixelCount * 8)
        // The size is checked before libtiff reads the directory, whose arrays it allocates.
        let directory = TIFFFirstDirectory(bytes)
        if let width = directory.width, let height = directory.height { try limits.check(width: width, height: height) }
        let openFailure = { (message: String?) -> ImageCodingError in
            directory.isComplete ? corrupted(message ?? "libtiff cannot read the file") : .truncatedData(format: format)
        }
        return try TIFFHandle.withHandle(bytes, maxSingleAllocation: maxAllocation, openFailure: openFailure) { handle in
            let tiff = handle.tiff
            var width: UInt32 = 0
            var height: UInt32 = 0
            guard kf_tiff_get_u32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width) != 0,
                kf_tiff_get_u32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height) != 0
            else {
                throw corrupted("the image size is missing")
            }
            try limits.check(width: Int(width), height: Int(height))
            return try body(handle, Int(width), Int(height))
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions, target: DecodingTarget?) throws -> DecodedImage {
        let limits = DecodingLimits(options, format: format)
        return try withFirstDirectory(bytes, limits: limits) { handle, width, height in
            let tiff = handle.tiff
            // Refused before the pixels are allocated: a block libtiff would fail to read anyway.
            guard !hasBlockPastTheEnd(tiff, byteCount: bytes.count) else { throw ImageCodingError.truncatedData(format: format) }
            let orientation = orientation(tiff)
            let failure = { decodingFailure(handle, bytes: bytes) }
            let layout = try sampleLayout(tiff)
            var image =
                try layout.map {
                    try readSamples(tiff, layout: $0, width: width, height: height, limits: limits, failure: failure)
                } ?? readRGBA(tiff, width: width, height: height, failure: failure)
            image.colorSpace = colorSpace(tiff)
            if let size = target?.fit(storedWidth: image.width, height: image.height, orientation: orientation) {
                image.resample(to: size.width, size.height)
            }
            image.applyOrientation(orientation)
            return image
        }
    }

    /// The value of a 16-bit tag (or its default), `nil` when it has none; typed as libtiff's
    /// constants are.
    private static func field(_ tiff: OpaquePointer, _ tag: Int32) -> Int32? {
        var value: UInt16 = 0
        return kf_tiff_get_u16(tiff, UInt32(tag), &value) != 0 ? Int32(value) : nil
    }

    /// The embedded ICC profile of a file whose pixels come out in the profile's space (grey or
    /// RGB). A CMYK profile no longer describes the pixels once they are converted to RGB here,
    /// nor does any profile of the spaces libtiff's RGBA reader converts (L*a*b*, LogLuv).
    private static func colorSpace(_ tiff: OpaquePointer) -> SourceColorSpace {
        let described: Set<Int32> = [
            PHOTOMETRIC_MINISWHITE, PHOTOMETRIC_MINISBLACK, PHOTOMETRIC_RGB,
            PHOTOMETRIC_PALETTE, PHOTOMETRIC_YCBCR,
        ]
        var count: UInt32 = 0
        var data: UnsafeRawPointer?
        guard let photometric = field(tiff, TIFFTAG_PHOTOMETRIC), described.contains(photometric),
            kf_tiff_get_icc_profile(tiff, &count, &data) != 0, let data, count > 0
        else { return .sRGB }
        return .icc(Data(bytes: data, count: Int(count)))
    }

    /// A block that libtiff could not decode: truncated when a strip or tile lies beyond the end
    /// of the data, else corrupted, with libtiff's own message.
    private static func decodingFailure(_ handle: TIFFHandle, bytes: UnsafeRawBufferPointer) -> ImageCodingError {
        hasBlockPastTheEnd(handle.tiff, byteCount: bytes.count)
            ? .truncatedData(format: format) : corrupted(handle.firstError ?? "libtiff cannot decode the image data")
    }

    /// Whether a strip or tile, as the directory places it, reaches past the end of the data.
    private static func hasBlockPastTheEnd(_ tiff: OpaquePointer, byteCount: Int) -> Bool {
        let available = UInt64(byteCount)
        for strile in 0..<TIFFNumberOfStrips(tiff) {
            let offset = TIFFGetStrileOffset(tiff, strile)
            let size = TIFFGetStrileByteCount(tiff, strile)
            if offset > available || available - offset < size { return true }
        }
        return false
    }

    // MARK: Raw samples

    /// How to read a file's samples: the row converter and the planes it reads.
    private struct SampleLayout {
        var converter: TIFFRowConverter
        var planes: [UInt16]
    }

    /// The layout for grey, RGB, palette, CMYK and L*a*b* files of unsigned 1 to 16-bit samples
    /// (and YCbCr JPEG, which libjpeg turns into RGB), grey and RGB of 32-bit integer or float
    /// samples, or `nil` for libtiff's RGBA reader.
    private static func sampleLayout(_ tiff: OpaquePointer) throws -> SampleLayout? {
        guard let bits = field(tiff, TIFFTAG_BITSPERSAMPLE),
            let samplesPerPixel = field(tiff, TIFFTAG_SAMPLESPERPIXEL), (1...16).contains(samplesPerPixel),
            let photometric = field(tiff, TIFFTAG_PHOTOMETRIC),
            let sampleFormat = self.sampleFormat(tiff, bits: bits)
        else { return nil }
        let planar = field(tiff, TIFFTAG_PLANARCONFIG) == PLANARCONFIG_SEPARATE
        let colour: TIFFRowConverter.Colour
        switch photometric {
        case _ where bits == 32 && photometric != PHOTOMETRIC_MINISBLACK && photometric != PHOTOMETRIC_RGB:
            return nil
        case PHOTOMETRIC_MINISWHITE, PHOTOMETRIC_MINISBLACK:
            colour = .gray(inverted: photometric == PHOTOMETRIC_MINISWHITE)
        case PHOTOMETRIC_RGB:
            colour = .rgb
        case PHOTOMETRIC_YCBCR where field(tiff, TIFFTAG_COMPRESSION) == COMPRESSION_JPEG && !planar && bits == 8:
            // libjpeg converts to RGB (and upsamples the chroma) when asked.
            guard kf_tiff_set_int(tiff, UInt32(TIFFTAG_JPEGCOLORMODE), JPEGCOLORMODE_RGB) != 0 else { return nil }
            colour = .rgb
        case PHOTOMETRIC_PALETTE:
            colour = .palette(table: try paletteTable(tiff, bits: Int(bits)))
        case PHOTOMETRIC_SEPARATED where field(tiff, TIFFTAG_INKSET) == INKSET_CMYK:
            colour = .cmyk
        case PHOTOMETRIC_CIELAB where (bits == 8 || bits == 16) && LCMSTransform.labToSRGB != nil:
            colour = .lab(signed: true)
        case PHOTOMETRIC_ICCLAB where (bits == 8 || bits == 16) && LCMSTransform.labToSRGB != nil:
            colour = .lab(signed: false)
        default:
            return nil
        }
        let extra = extraSamples(tiff)
        let colours = colour.sampleCount
        let firstExtra = Int(samplesPerPixel) - extra.count
        guard firstExtra >= colours else { return nil }
        var alpha: TIFFRowConverter.Alpha?
        if let kind = extra.firstKind {
            switch kind {
            case EXTRASAMPLE_ASSOCALPHA:
                // A palette index cannot be multiplied by alpha: such a file means straight alpha.
                if case .palette = colour { alpha = .straight } else { alpha = .associated }
            case EXTRASAMPLE_UNASSALPHA: alpha = .straight
            default: alpha = nil  // unspecified: not alpha (as Pillow reads it)
            }
        }
        let samples = Array(0..<colours) + (alpha == nil ? [] : [firstExtra])
        let sources =
            planar
            ? samples.indices.map { TIFFRowConverter.Source(plane: $0, sample: 0) }
            : samples.map { TIFFRowConverter.Source(plane: 0, sample: $0) }
        let converter = TIFFRowConverter(
            colour: colour, alpha: alpha, bitsPerSample: Int(bits), sampleFormat: sampleFormat,
            samplesPerPixel: planar ? 1 : Int(samplesPerPixel), sources: sources)
        return SampleLayout(converter: converter, planes: planar ? samples.map { UInt16($0) } : [0])
    }

    /// How samples of `bits` bits are read: unsigned integers of 1 to 16 bits, or 32-bit
    /// unsigned, signed or floating-point ones; `nil` for any other kind. A float's range is
    /// SMinSampleValue to SMaxSampleValue when the file gives them, else 0 to 1, the range
    /// float images are written in (Photoshop, GIMP, libvips).
    private static func sampleFormat(_ tiff: OpaquePointer, bits: Int32) -> TIFFRowConverter.SampleFormat? {
        guard let format = field(tiff, TIFFTAG_SAMPLEFORMAT) else { return nil }
        switch (format, bits) {
        case (SAMPLEFORMAT_UINT, 1...16), (SAMPLEFORMAT_VOID, 1...16), (SAMPLEFORMAT_UINT, 32):
            return .unsigned
        case (SAMPLEFORMAT_INT, 32):
            return .signed
        case (SAMPLEFORMAT_IEEEFP, 32):
            var minimum = 0.0
            var maximum = 1.0
            if kf_tiff_get_double(tiff, UInt32(TIFFTAG_SMINSAMPLEVALUE), &minimum) == 0 { minimum = 0 }
            if kf_tiff_get_double(tiff, UInt32(TIFFTAG_SMAXSAMPLEVALUE), &maximum) == 0 { maximum = 1 }
            guard minimum.isFinite, maximum.isFinite, maximum > minimum else { return .float(minimum: 0, maximum: 1) }
            return .float(minimum: Float(minimum), maximum: Float(maximum))
        default:
            return nil
        }
    }

    /// The colour map as RGBA for every index of `bits` bits. Entries are 16-bit; a map whose
    /// entries all fit in 8 bits is an old 8-bit map (as libtiff reads it). Otherwise the high
    /// byte is the 8-bit value: writers scale by 257 (libtiff, ImageMagick) or 256 (Pillow),
    /// and only the high byte gives back the original 8-bit colour for both.
    private static func paletteTable(_ tiff: OpaquePointer, bits: Int) throws -> [UInt8] {
        var red: UnsafePointer<UInt16>?
        var green: UnsafePointer<UInt16>?
        var blue: UnsafePointer<UInt16>?
        guard bits <= 16, kf_tiff_get_colormap(tiff, &red, &green, &blue) != 0, let red, let green, let blue else {
            throw corrupted("the palette image has no colour map")
        }
        let count = 1 << bits
        let maps = [red, green, blue].map { UnsafeBufferPointer(start: $0, count: count) }
        let shift = maps.allSatisfy { $0.allSatisfy { $0 < 256 } } ? 0 : 8
        var table = [UInt8](repeating: 255, count: count * 4)
        for index in 0..<count {
            for channel in 0..<3 { table[index * 4 + channel] = UInt8(truncatingIfNeeded: maps[channel][index] >> shift) }
        }
        return table
    }

    private static func readSamples(
        _ tiff: OpaquePointer, layout: SampleLayout, width: Int, height: Int,
        limits: DecodingLimits, failure: () -> ImageCodingError
    ) throws -> DecodedImage {
        let block = try TIFFBlockReader.blockSize(tiff, width: width, height: height, maxPixelCount: limits.maxPixelCount)
        var reader = TIFFBlockReader(
            tiff: tiff, width: width, height: height, planes: layout.planes,
            converter: layout.converter)
        let pixels = try PixelBuffer.make(count: width * height * 4) { out in
            try reader.read(block, into: out, failure: failure)
            if case .lab = layout.converter.colour { LCMSTransform.labToSRGB?.convertInParallel(out, count: width * height) }
        }
        return DecodedImage(
            width: width, height: height, frames: [ImageFrame(pixels: pixels)],
            hasAlpha: layout.converter.alpha != nil)
    }

    // MARK: libtiff's RGBA reader

    /// Any other layout libtiff can render, as 8-bit RGBA with associated alpha, divided out here.
    private static func readRGBA(
        _ tiff: OpaquePointer, width: Int, height: Int,
        failure: () -> ImageCodingError
    ) throws -> DecodedImage {
        var reason = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(tiff, &reason) != 0 else {
            throw corrupted(reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        // Rows as stored: the orientation is applied afterwards, as for raw samples (libtiff's
        // own handling flips but never transposes).
        _ = kf_tiff_set_int(tiff, UInt32(TIFFTAG_ORIENTATION), ORIENTATION_TOPLEFT)
        var status: Int32 = 0
        var pixels = PixelBuffer.make(count: width * height * 4) { out in
            memset(out, 0, width * height * 4)
            status = out.withMemoryRebound(to: UInt32.self, capacity: width * height) {
                TIFFReadRGBAImageOriented(tiff, UInt32(width), UInt32(height), $0, ORIENTATION_TOPLEFT, 1)
            }
        }
        guard status != 0 else { throw failure() }
        // libtiff packs each pixel as A B G R from the high byte: R first in memory only on
        // little-endian machines.
        if UInt32(1).bigEndian == 1 {
            pixels.withUnsafeMutableBytes { raw in
                for i in 0..<width * height {
                    raw.storeBytes(
                        of: raw.load(fromByteOffset: i * 4, as: UInt32.self).byteSwapped,
                        toByteOffset: i * 4, as: UInt32.self)
                }
            }
        }
        let hasAlpha = stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] != 255 }
        if hasAlpha { AlphaWeighting.unpremultiply(&pixels) }
        return DecodedImage(width: width, height: height, frames: [ImageFrame(pixels: pixels)], hasAlpha: hasAlpha)
    }
}
