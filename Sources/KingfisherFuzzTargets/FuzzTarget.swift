// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// The fuzz targets: each takes arbitrary bytes, and must end without a crash, a leak, a hang
/// or an error the library does not declare (``KingfisherError``, `ImageCodingError`,
/// `ImageProcessingError`). `scripts/fuzz.sh` runs them under libFuzzer
/// with AddressSanitizer (`kf-fuzz`); the test suite replays every input that once failed.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Format detection and a full decode of any bytes, every frame of an animation.
    case decode
    /// A downsampled decode (the first byte picks the target size) of the remaining bytes.
    case downsample
    /// The `kf --processor` grammar, and the parsed chain run on a small image.
    case processor
    /// EXIF: the bytes as the payload of a JPEG's APP1 segment, decoded with its orientation.
    case exif
    /// The disk cache reading a cached file with the bytes as its contents.
    case diskCache = "disk-cache"
    /// One format's decoder, full size (every frame) and downsampled, on any bytes (magic bytes
    /// not checked).
    case decodeAPNG = "decode-apng"
    case decodeHEIC = "decode-heic"
    case decodeAVIF = "decode-avif"
    case
        decodeJXL = "decode-jxl"
    case decodeTIFF = "decode-tiff"
    case decodeBMP = "decode-bmp"
    case decodeICO = "decode-ico"
    /// SVG through librsvg: parsing, the size checks and a render on its own thread.
    case decodeSVG = "decode-svg"

    /// The pixel limit for decoding fuzzed input: 4 megapixels, so that time goes into finding
    /// paths rather than filling large buffers (the limit itself is tested separately).
    static let maxPixelCount = 4_000_000

    /// The decoding options for fuzzed input: ``maxPixelCount``, at most 64 frames, and SVG
    /// renders of at most 2 seconds (libFuzzer's time-out per input is 10).
    static let decodingOptions = ImageCreatingOptions(maxPixelCount: maxPixelCount, maxFrameCount: 64, maxSVGRenderingTime: 2)

    /// Decodes the frames of `image` after the first, as a player asks for them: the path
    /// through each animation format's on-demand frame reader. Stops after four times
    /// ``maxPixelCount`` pixels, so that large canvases do not slow the search down.
    static func readEveryFrame(of image: KingfisherImage) throws {
        let budget = 4 * maxPixelCount / max(1, image.pixelWidth * image.pixelHeight)
        for index in 1..<max(1, min(image.frameCount, budget + 1)) {
            let frame = try image.frame(at: index)
            precondition(frame.pixels.count == image.pixelWidth * image.pixelHeight * 4, "frame \(index) of the wrong size")
        }
    }

    /// Runs the target on `data`; traps on anything that is not an image or a declared error.
    public func run(_ data: Data) {
        switch self {
        case .decode: DecodeFuzzing.run(data)
        case .downsample: DownsampleFuzzing.run(data)
        case .processor: ProcessorFuzzing.run(data)
        case .exif: EXIFFuzzing.run(data)
        case .diskCache: DiskCacheFuzzing.shared.run(data)
        case .decodeAPNG: FormatDecodeFuzzing.run(data, as: .PNG)
        case .decodeHEIC: FormatDecodeFuzzing.run(data, as: .HEIC)
        case .decodeAVIF: FormatDecodeFuzzing.run(data, as: .AVIF)
        case .decodeJXL: FormatDecodeFuzzing.run(data, as: .JXL)
        case .decodeTIFF: FormatDecodeFuzzing.run(data, as: .TIFF)
        case .decodeBMP: FormatDecodeFuzzing.run(data, as: .BMP)
        case .decodeICO: FormatDecodeFuzzing.run(data, as: .ICO)
        case .decodeSVG: FormatDecodeFuzzing.run(data, as: .SVG)
        }
    }

    /// Runs `body`; any error the library does not declare is a finding.
    static func expectingLibraryErrors(_ body: () throws -> Void) {
        do {
            try body()
        } catch is KingfisherError, is ImageCodingError, is ImageProcessingError {
            return
        } catch {
            fatalError("an error the library does not declare: \(error)")
        }
    }
}
