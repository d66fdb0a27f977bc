// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherFuzzTargets
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// HEIC (libheif), AVIF (libavif) and JPEG XL (libjxl) decoding against each format's reference
/// decoder, downsampled, and on damaged or hostile files.
@Suite(.timeLimit(.minutes(10))) struct BMFFDecodingTests {
    /// The format's decoder output itself, with the colour space it found.
    static func decoded(_ data: Data, maxPixelSize: Int? = nil) throws -> DecodedImage {
        let options = ImageCreatingOptions()
        return try data.withUnsafeBytes { bytes in
            switch data.kf.imageFileFormat {
            case .HEIC: return try HEIFCodec.decode(bytes, options: options, target: maxPixelSize.map { .longestSide($0) })
            case .AVIF: return try AVIFCodec.decode(bytes, options: options, target: maxPixelSize.map { .longestSide($0) })
            case .JXL: return try JXLCodec.decode(bytes, options: options, target: maxPixelSize.map { .longestSide($0) })
            default: throw ImageCodingError.unsupportedFormat(data.kf.imageFileFormat)
            }
        }
    }

    @Test(arguments: BMFFFixtures.entries)
    func decodesLikeTheReferenceDecoder(_ entry: BMFFFixtures.Entry) throws {
        let data = try BMFFFixtures.data(entry.file)
        #expect(data.kf.imageFileFormat.rawValue.lowercased() == entry.format)
        // The reference decoders leave pixels in the file's colour space: so does this decode
        // (the conversion to sRGB is ColorManagementTests' business).
        let image = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(preserveColorProfile: true))
        let reference = try KingfisherImage.decode(data: BMFFFixtures.data(entry.reference))
        #expect(
            image.pixelWidth == entry.width && image.pixelHeight == entry.height,
            "\(entry.file): \(image.pixelWidth)x\(image.pixelHeight)")
        guard image.pixelWidth == reference.pixelWidth && image.pixelHeight == reference.pixelHeight else { return }
        let quality = psnr(image.pixels, reference.pixels)
        #expect(quality >= entry.minPSNR, "\(entry.file): \(quality) dB")
        #expect(image.hasAlpha == entry.alpha)
        let alphaDifference =
            stride(from: 3, to: image.pixels.count, by: 4)
            .map { abs(Int(image.pixels[$0]) - Int(reference.pixels[$0])) }.max() ?? 0
        #expect(alphaDifference <= 1, "\(entry.file): alpha off by \(alphaDifference)")
        if !entry.alpha { #expect(PixelOps.isOpaque(image.pixels)) }
        // HEIF's irot/imir and JPEG XL's orientation are not EXIF orientation.
        #expect(image.exifOrientation == 1)
        #expect(image.format == data.kf.imageFileFormat)
        #expect(image.originalData == data)
        print("\(entry.file): \(String(format: "%.1f", quality)) dB")
    }

    @Test(arguments: BMFFFixtures.entries)
    func reportsTheDeclaredColorSpace(_ entry: BMFFFixtures.Entry) throws {
        let colorSpace = try Self.decoded(BMFFFixtures.data(entry.file)).colorSpace
        switch entry.colorSpace {
        case "icc":
            let profile = try BMFFFixtures.data((entry.file as NSString).deletingPathExtension + ".icc")
            #expect(colorSpace == .icc(profile))
        default:
            #expect(colorSpace == .sRGB)
        }
    }

    @Test(arguments: BMFFFixtures.entries)
    func downsamplesKeepingTheAspectRatio(_ entry: BMFFFixtures.Entry) throws {
        let data = try BMFFFixtures.data(entry.file)
        let full = try KingfisherImage.decode(data: data)
        for maxPixelSize in [1, 17, 40] {
            let image = try KingfisherImage.downsampled(data: data, maxPixelSize: maxPixelSize)
            let expected = DownsamplingTarget.fit(width: entry.width, height: entry.height, maxPixelSize: maxPixelSize)
            #expect(
                image.pixelWidth == expected.width && image.pixelHeight == expected.height,
                "\(entry.file) at \(maxPixelSize): \(image.pixelWidth)x\(image.pixelHeight)")
            #expect(image.hasAlpha == entry.alpha)
            #expect(image.originalData == nil)
            if maxPixelSize == 40 {
                // Upright like the full decode: the same pixels, resampled.
                let resampled = Resampler.resize(
                    full.pixels, width: full.pixelWidth, height: full.pixelHeight,
                    to: expected.width, expected.height, hasAlpha: full.hasAlpha)
                #expect(psnr(image.pixels, resampled) > 40, "\(entry.file)")
            }
        }
        let unchanged = try KingfisherImage.downsampled(data: data, maxPixelSize: 1000)
        #expect(unchanged.pixelWidth == entry.width && unchanged.pixelHeight == entry.height, "never enlarged")
    }

    /// The full image is dark with a bright pixel every 4th column of every 4th row; the thumbnail
    /// holds those bright pixels. A decode to at most the thumbnail's size must read the thumbnail.
    @Test func downsamplingUsesTheHEICThumbnail() throws {
        let fixture = BMFFFixtures.thumbnail
        let data = try BMFFFixtures.data(fixture.file)
        let reference = try KingfisherImage.decode(data: BMFFFixtures.data(fixture.reference))
        let fromThumbnail = try KingfisherImage.downsampled(data: data, maxPixelSize: fixture.thumbnailWidth)
        #expect(fromThumbnail.pixelWidth == fixture.thumbnailWidth && fromThumbnail.pixelHeight == fixture.thumbnailHeight)
        #expect(psnr(fromThumbnail.pixels, reference.pixels) > 28, "the thumbnail's pixels (lossy HEVC, 4:2:0)")
        #expect(meanGreen(try KingfisherImage.downsampled(data: data, maxPixelSize: 16)) > 150, "a smaller target reads it too")
        let fromFullImage = try KingfisherImage.downsampled(data: data, maxPixelSize: fixture.thumbnailWidth + 1)
        #expect(meanGreen(fromFullImage) < 64, "a larger target reads the full image")
    }

    private func meanGreen(_ image: KingfisherImage) -> Double {
        let greens = stride(from: 1, to: image.pixels.count, by: 4).map { Double(image.pixels[$0]) }
        return greens.reduce(0, +) / Double(greens.count)
    }

    @Test(arguments: BMFFFixtures.entries)
    func truncatedFilesAreRefused(_ entry: BMFFFixtures.Entry) throws {
        let data = try BMFFFixtures.data(entry.file)
        let format = data.kf.imageFileFormat
        let half = codingErrorReason { _ = try KingfisherImage.decode(data: data.prefix(data.count / 2)) }
        #expect(half == .truncatedData(format: format), "\(entry.file) cut at half: \(String(describing: half))")
        for length in stride(from: 1, to: data.count, by: max(1, data.count / 61)) {
            let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data.prefix(length)) }
            switch reason {
            case .truncatedData(format)?, .corruptedData(format, _)?, .unknownFormat?: break
            default: Issue.record("\(entry.file)[..<\(length)]: \(String(describing: reason))")
            }
        }
    }

    /// Single damaged bytes anywhere: an image or an error naming the format, never a crash.
    @Test(arguments: BMFFFixtures.entries)
    func corruptedFilesDecodeOrAreRefused(_ entry: BMFFFixtures.Entry) throws {
        let data = try BMFFFixtures.data(entry.file)
        let format = data.kf.imageFileFormat
        var generator = SeededGenerator(state: UInt64(data.count))
        for _ in 0..<60 {
            var damaged = data
            let index = Int.random(in: 12..<data.count, using: &generator)
            damaged[index] ^= UInt8.random(in: 1...255, using: &generator)
            do {
                let image = try KingfisherImage.decode(data: damaged, options: ImageCreatingOptions(maxPixelCount: 4_000_000))
                #expect(image.pixelWidth > 0)
            } catch let error as ImageCodingError {
                switch error {
                case .truncatedData(format), .corruptedData(format, _), .tooManyPixels(format, _, _, _, _): break
                default: Issue.record("\(entry.file) with byte \(index) changed: \(error)")
                }
            }
        }
    }

    /// A grid whose own data declares a canvas far larger than its `ispe` property: libheif 1.15
    /// would allocate the canvas.
    @Test func heicGridCanvasIsChecked() throws {
        var data = try BMFFFixtures.data("heic_8bit.heic")
        // heif-enc stores the 1x1 grid (version 0, flags 0, rows - 1 = 0, columns - 1 = 0, then
        // 16-bit width 64 and height 48) in idat; the grid's ispe still says 64 x 48.
        let grid = Data([0, 0, 0, 0, 0, 64, 0, 48])
        data.replaceSubrange(try #require(data.firstRange(of: grid)), with: [0, 0, 0, 0, 0x7F, 0xFF, 0x7F, 0xFF] as [UInt8])
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard case .tooManyPixels(.HEIC, 32767, 32767, _, _)? = reason else {
            Issue.record("a 32767 x 32767 grid canvas: \(String(describing: reason))")
            return
        }
    }

    /// A grid whose data is too short to hold its size (the iloc extent cut to 4 bytes) is refused
    /// rather than left to libheif unchecked.
    @Test func heicGridCanvasMustBeReadable() throws {
        var data = try BMFFFixtures.data("heic_8bit.heic")
        // iloc entry of item 2: construction method 1 (idat), base 0, one extent: offset 0, length 8.
        let entry = Data([0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8])
        let range = try #require(data.firstRange(of: entry))
        data[range.upperBound - 1] = 4
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard case .corruptedData(.HEIC, let detail)? = reason else {
            Issue.record("expected corruptedData, got \(String(describing: reason))")
            return
        }
        #expect(detail.contains("size cannot be read"), "\(detail)")
    }

    /// The decode-heic fuzzer's first finding: a grid of 64 x 4149 whose ispe says 64 x 48 decoded
    /// to 64 x 4149 (and the parallel resampling of it made LeakSanitizer report libdispatch's
    /// continuation cache). A derived image's canvas must be its ispe size.
    @Test func heicGridCanvasMustMatchItsSize() throws {
        let data = try Fixtures.data("fuzz/decode-heic/grid-canvas-larger-than-ispe")
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard case .corruptedData(.HEIC, let detail)? = reason else {
            Issue.record("expected corruptedData, got \(String(describing: reason))")
            return
        }
        #expect(detail.contains("64x4149") && detail.contains("64x48"), "\(detail)")
    }

    @Test func irotAndImirMapOntoEXIFOrientations() {
        // A 3x2 image whose pixels are all different.
        let pixels: [UInt8] = (0..<6).flatMap { [UInt8($0), 0, 0, 255] as [UInt8] }
        func turnedThenMirrored(_ turns: Int, _ mirror: HEIFTransform.Mirror?) -> [UInt8] {
            let rotation: [ImageOrientation] = [.up, .left, .down, .right]  // anticlockwise quarter turns
            let turned = rotation[turns].apply(to: pixels, width: 3, height: 2)
            let flip: ImageOrientation = mirror == .leftRight ? .upMirrored : mirror == .topBottom ? .downMirrored : .up
            return flip.apply(to: turned.pixels, width: turned.width, height: turned.height).pixels
        }
        for turns in 0..<4 {
            for mirror in [nil, HEIFTransform.Mirror.topBottom, .leftRight] {
                let orientation = HEIFTransform(anticlockwiseQuarterTurns: turns, mirror: mirror).orientation
                #expect(
                    orientation.apply(to: pixels, width: 3, height: 2).pixels == turnedThenMirrored(turns, mirror),
                    "irot \(turns), imir \(String(describing: mirror)) as \(orientation)")
            }
        }
    }

    @Test func fuzzTargetsTakeTheSeeds() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: BMFFFixtures.directory.path).sorted()
        for file in files {
            let target: FuzzTarget
            switch (file as NSString).pathExtension {
            case "heic": target = .decodeHEIC
            case "avif": target = .decodeAVIF
            case "jxl": target = .decodeJXL
            default: continue
            }
            target.run(try BMFFFixtures.data(file))
        }
    }
}
