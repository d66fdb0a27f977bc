// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CTurboJPEG
import Foundation

/// JPEG through libjpeg-turbo's TurboJPEG API: baseline and progressive, grayscale, CMYK/YCCK,
/// any chroma subsampling; EXIF orientation applied; DCT-domain downscaling for thumbnails.
///
/// Damage libjpeg can step over decodes as browsers show it: stray bytes between markers are
/// skipped, and a file that ends inside its scan data gives the rows that arrived, grey below
/// (a progressive file: its scans so far). A file that ends before its first scan is refused
/// as truncated, and a real error (an unknown marker where a table must be, a bad Huffman
/// table) refuses the whole file.
enum JPEGCodec {
    private static let format = ImageFileFormat.JPEG

    // MARK: Decoding

    /// Decodes `bytes`. With a target, decodes straight to the smallest DCT scale (1/8 … 1)
    /// that still covers it, then resamples exactly to it: no full-size buffer.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions,
        target decodingTarget: DecodingTarget?
    ) throws -> DecodedImage {
        guard let handle = tjInitDecompress() else {
            throw ImageCodingError.corruptedData(format: format, detail: "TurboJPEG could not start")
        }
        defer { tjDestroy(handle) }
        let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let limits = DecodingLimits(options, format: format)
        let (width, height, colorspace) = try readFrameHeader(handle, bytes, limits: limits)

        let metadata = JPEGMetadata(jpeg: bytes, maxEXIFByteCount: limits.maxEXIFByteCount)
        let target =
            decodingTarget?.fit(storedWidth: Int(width), height: Int(height), orientation: metadata.orientation)
            ?? (width: Int(width), height: Int(height))
        let factor = scalingFactor(width: Int(width), height: Int(height), covering: target)
        let scaledWidth = scaled(Int(width), by: factor)
        let scaledHeight = scaled(Int(height), by: factor)

        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let pixelFormat = isCMYK ? TJPF_CMYK : TJPF_RGBA
        let flags = TJFLAG_LIMITSCANS
        var failure: ImageCodingError?
        let pixels = PixelBuffer.make(count: scaledWidth * scaledHeight * 4) { out in
            let status = tjDecompress2(
                handle, source, UInt(bytes.count), out, Int32(scaledWidth), 0,
                Int32(scaledHeight), Int32(pixelFormat.rawValue), flags)
            // libjpeg reports recoverable damage (stray bytes between markers, a file that ends
            // in its scan data) as warnings and still writes every row, as browsers show it.
            if status != 0, !isWarning(handle) {
                failure = decodingError(handle, bytes: bytes)
                return
            }
            if isCMYK {
                convertCMYKToRGBA(
                    out, count: scaledWidth * scaledHeight, inverted: metadata.hasAdobeMarker,
                    profile: metadata.iccProfile)
            }
        }
        if let failure { throw failure }
        var image = DecodedImage(
            width: scaledWidth, height: scaledHeight,
            frames: [ImageFrame(pixels: pixels)], hasAlpha: false)
        // A CMYK image's profile has been used already: its pixels are sRGB now.
        if !isCMYK, let profile = metadata.iccProfile { image.colorSpace = .icc(profile) }
        image.resample(to: target.width, target.height)
        image.applyOrientation(metadata.orientation)
        return image
    }

    /// The size and colour space the frame header declares, checked against the limits.
    private static func readFrameHeader(
        _ handle: tjhandle, _ bytes: UnsafeRawBufferPointer, limits: DecodingLimits
    ) throws -> (width: Int32, height: Int32, colorspace: Int32) {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if tjDecompressHeader3(handle, source, UInt(bytes.count), &width, &height, &subsampling, &colorspace) != 0,
            !isWarning(handle) || width <= 0 || height <= 0
        {
            throw decodingError(handle, bytes: bytes)
        }
        try limits.check(width: Int(width), height: Int(height))
        return (width, height, colorspace)
    }

    /// What the markers before the first scan say: no pixel is decoded.
    static func header(_ bytes: UnsafeRawBufferPointer, options: ImageCreatingOptions) throws -> ImageHeader {
        guard let handle = tjInitDecompress() else {
            throw ImageCodingError.corruptedData(format: format, detail: "TurboJPEG could not start")
        }
        defer { tjDestroy(handle) }
        let limits = DecodingLimits.forHeader(options, format: format)
        let (width, height, _) = try readFrameHeader(handle, bytes, limits: limits)
        let metadata = JPEGMetadata(jpeg: bytes, maxEXIFByteCount: limits.maxEXIFByteCount)
        return ImageHeader(
            storedWidth: Int(width), height: Int(height), orientation: metadata.orientation, hasAlpha: false,
            colorSpace: metadata.iccProfile.map(SourceColorSpace.icc) ?? .sRGB)
    }

    private static func scaled(_ dimension: Int, by factor: tjscalingfactor) -> Int {
        (dimension * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
    }

    /// The smallest TurboJPEG scaling factor, at most 1, whose output covers `target`.
    private static func scalingFactor(width: Int, height: Int, covering target: (width: Int, height: Int)) -> tjscalingfactor {
        var best = tjscalingfactor(num: 1, denom: 1)
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return best }
        for index in 0..<Int(count) {
            let factor = factors[index]
            guard factor.num <= factor.denom else { continue }
            guard scaled(width, by: factor) >= target.width, scaled(height, by: factor) >= target.height else { continue }
            if Double(factor.num) / Double(factor.denom) < Double(best.num) / Double(best.denom) {
                best = factor
            }
        }
        return best
    }

    /// Whether the last call's failure was only a warning: libjpeg went on, and the header or
    /// every row it could decode is there (rows past the end of a truncated file are grey).
    private static func isWarning(_ handle: tjhandle) -> Bool {
        tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
    }

    private static func decodingError(_ handle: tjhandle, bytes: UnsafeRawBufferPointer) -> ImageCodingError {
        let message = String(cString: tjGetErrorStr2(handle))
        if message.contains("Premature end") || message.contains("insufficient") || message.contains("missing SOS")
            || bytes.count < 4
        {
            return .truncatedData(format: format)
        }
        return .corruptedData(format: format, detail: message)
    }

    /// Converts CMYK (4 bytes per pixel) to opaque sRGB RGBA in place, through the embedded CMYK
    /// profile when there is a usable one, else by the naive formula browsers use. Adobe-marked
    /// files store inverted CMYK (as Photoshop writes it).
    private static func convertCMYKToRGBA(_ p: UnsafeMutablePointer<UInt8>, count: Int, inverted: Bool, profile: Data?) {
        if let profile, let transform = ColorConversion.transform(icc: profile, input: .cmyk(inverted: inverted)) {
            transform.convertInParallel(p, count: count)
            return
        }
        for i in 0..<count {
            let o = p + i * 4
            var c = Int(o[0])
            var m = Int(o[1])
            var y = Int(o[2])
            var k = Int(o[3])
            if !inverted {
                c = 255 - c
                m = 255 - m
                y = 255 - y
                k = 255 - k
            }
            // With inverted values, each colour is (1 - C)(1 - K) = c * k / 255.
            o[0] = UInt8((c * k + 127) / 255)
            o[1] = UInt8((m * k + 127) / 255)
            o[2] = UInt8((y * k + 127) / 255)
            o[3] = 255
        }
    }

    // MARK: Encoding

    /// The colour transparent pixels are flattened onto when encoding JPEG, which has no alpha:
    /// opaque white.
    static let defaultBackground: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255)

    /// Encodes the first frame as JPEG. `quality` is Kingfisher's compressionQuality, 0…1 (clamped).
    /// Qualities of 0.9 and above keep full chroma resolution (4:4:4), lower ones use 4:2:0.
    /// Alpha is flattened onto ``defaultBackground``. `progressive` writes a progressive JPEG
    /// (several scans, coarse to fine); default baseline.
    static func encode(_ image: KingfisherImage, quality: CGFloat, progressive: Bool = false) throws -> Data {
        guard let handle = tjInitCompress() else {
            throw ImageCodingError.encodingFailed(format: format, detail: "TurboJPEG could not start")
        }
        defer { tjDestroy(handle) }
        let q = Int32((min(max(quality, 0), 1) * 100).rounded())
        let subsampling = q >= 90 ? TJSAMP_444 : TJSAMP_420
        let pixels = image.hasAlpha ? PixelOps.flattened(image.pixels, onto: defaultBackground) : image.pixels
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = pixels.withUnsafeBufferPointer { src in
            tjCompress2(
                handle, src.baseAddress, Int32(image.pixelWidth), 0, Int32(image.pixelHeight),
                Int32(TJPF_RGBX.rawValue), &output, &size, Int32(subsampling.rawValue), max(q, 1),
                progressive ? TJFLAG_PROGRESSIVE : 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let message = String(cString: tjGetErrorStr2(handle))
            throw ImageCodingError.encodingFailed(format: format, detail: message)
        }
        return Data(bytes: output, count: Int(size))
    }
}
