// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Bad input gets the right ImageCodingError, quickly, and never a crash.
@Suite(.timeLimit(.minutes(10))) struct BadInputTests {
    typealias Reason = ImageCodingError

    @Test func emptyDataIsRefused() {
        #expect(codingErrorReason { _ = try KingfisherImage.decode(data: Data()) } == .emptyData)
    }

    @Test func htmlErrorPageIsNamed() throws {
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: try Fixtures.data("html_error.html")) }
        #expect(reason == .unknownFormat(description: "an HTML document"))
        #expect(reason?.errorCode == 6002)
    }

    @Test func randomBytesAreNotAnImage() throws {
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: try Fixtures.data("random.bin")) }
        guard case .unknownFormat(let description)? = reason else {
            Issue.record("expected unknownFormat, got \(String(describing: reason))")
            return
        }
        #expect(description.hasPrefix("binary data starting with"))
    }

    /// A JPEG cut inside its scan data shows the rows that arrived, as browsers do; one cut
    /// before its first scan is truncated; every other cut decodes or fails with a coding error.
    @Test(arguments: ["photo_baseline_420.jpg", "photo_progressive.jpg"])
    func jpegsCutInTheirScanShowWhatArrived(_ file: String) throws {
        let data = try Fixtures.data(file)
        let whole = try KingfisherImage.decode(data: data)
        let half = try KingfisherImage.decode(data: Data(data.prefix(data.count / 2)))
        #expect(half.pixelWidth == whole.pixelWidth && half.pixelHeight == whole.pixelHeight)
        // The first rows arrived whole (a progressive file's first scans cover the whole image).
        let firstRows = whole.pixelWidth * 4 * 8
        #expect(psnr(Array(half.pixels.prefix(firstRows)), Array(whole.pixels.prefix(firstRows))) > 20)
        let startOfScan = try #require(data.firstRange(of: Data([0xFF, 0xDA])))
        let beforeScan = codingErrorReason { _ = try KingfisherImage.decode(data: Data(data.prefix(startOfScan.lowerBound))) }
        #expect(beforeScan == .truncatedData(format: .JPEG), "\(file) cut before its scan: \(String(describing: beforeScan))")
        for length in Swift.stride(from: 1, to: data.count, by: max(1, data.count / 97)) {
            do {
                _ = try KingfisherImage.decode(data: Data(data.prefix(length)))
            } catch {
                if !(error is ImageCodingError) { Issue.record("\(file)[..<\(length)]: \(error)") }
            }
        }
    }

    /// Every prefix of every fixture of each format either decodes or fails with a coding error.
    @Test(arguments: [
        "png_rgba_8_adam7.png", "photo.png",
        "gif_disposal_background.gif", "photo_lossy.webp", "photo_lossless.webp", "webp_animated.webp",
    ])
    func truncatedFilesAreRefused(_ file: String) throws {
        let data = try Fixtures.data(file)
        let format = data.kf.imageFileFormat
        // Cut in the middle of the pixel data: refused as truncated.
        let half = data.prefix(data.count / 2)
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: Data(half)) }
        #expect(reason == .truncatedData(format: format), "\(file) cut at half: \(String(describing: reason))")
        // Every other cut point: a coding error or (for cuts in trailing metadata) an image; no crash.
        for length in Swift.stride(from: 1, to: data.count, by: max(1, data.count / 97)) {
            do {
                _ = try KingfisherImage.decode(data: Data(data.prefix(length)))
            } catch {
                if !(error is ImageCodingError) { Issue.record("\(file)[..<\(length)]: \(error)") }
            }
        }
    }

    /// The fifth is an animated WebP the decode fuzzer found: libwebp allocated its 3.7 GB canvas
    /// before the limit was checked. (calloc leaves such memory untouched, so only libFuzzer's
    /// malloc limit sees it: scripts/fuzz.sh replays Fixtures/fuzz/ under that limit.) The sixth,
    /// from the decode-heic fuzzer, is a 64x48 HEIC whose grid declares 16384 x 21044: libheif 1.15
    /// composed that canvas (2.4 GB) unchecked. Then HEIC, AVIF and JPEG XL headers claiming
    /// 16000 x 16000 pixels or more (Fixtures/bmff).
    @Test(
        arguments: [
            "png_100000x100000.png", "jpeg_65000x65000.jpg", "gif_huge_screen.gif", "webp_huge.webp",
            "fuzz/decode/webp-animation-huge-canvas", "fuzz/decode-heic/grid-canvas-behind-iloc-index-size",
        ]
            + BMFFFixtures.huge.map { "bmff/" + $0 })
    func decompressionBombsAreRefusedFromTheHeader(_ file: String) throws {
        let data = try Fixtures.data(file)
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard case .tooManyPixels(let format, let width, let height, _, let limit)? = reason else {
            Issue.record("\(file): expected tooManyPixels, got \(String(describing: reason))")
            return
        }
        #expect(format == data.kf.imageFileFormat)
        #expect(width * height > limit)
        // The downsampled decode refuses it too: the limit is on the source, not the output.
        #expect(codingErrorReason { _ = try KingfisherImage.downsampled(data: data, maxPixelSize: 100) } != nil)
    }

    @Test func lyingPNGDataIsCorrupted() throws {
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: try Fixtures.data("png_lying_idat.png")) }
        switch reason {
        case .corruptedData(.PNG, _)?, .truncatedData(.PNG)?: break
        default: Issue.record("expected a PNG data error, got \(String(describing: reason))")
        }
    }

    @Test func pixelLimitIsASetting() throws {
        let data = try Fixtures.data("photo.png")  // 190 x 127
        let small = ImageCreatingOptions(maxPixelCount: 190 * 127 - 1)
        #expect(
            codingErrorReason { _ = try KingfisherImage.decode(data: data, options: small) }
                == .tooManyPixels(format: .PNG, width: 190, height: 127, frameCount: 1, limit: 190 * 127 - 1))
        #expect(try KingfisherImage.decode(data: data, options: ImageCreatingOptions(maxPixelCount: 190 * 127)).pixelWidth == 190)
    }

    /// The pixel limit is per frame; what an animation holds at once is bounded by the
    /// decoded-bytes limit, which refuses an animation decoded up front from its header.
    @Test func animationsAreLimitedPerFrameAndByTheBytesTheyHold() throws {
        for (file, format, width, height) in [
            ("webp_animated.webp", ImageFileFormat.WebP, 24, 16), ("gif_disposal_none.gif", .GIF, 20, 16),
        ] {
            let data = try Fixtures.data(file)  // 3 frames each
            let perFrame = ImageCreatingOptions(maxPixelCount: width * height - 1)
            #expect(
                codingErrorReason { _ = try KingfisherImage.decode(data: data, options: perFrame) }
                    == .tooManyPixels(format: format, width: width, height: height, frameCount: 1, limit: width * height - 1))
            let twoFrames = width * height * 4 * 2
            let onDemand = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(maxDecodedByteCount: twoFrames))
            #expect(onDemand.frameCount == 3 && onDemand.frames.count == 3)
            let preloaded = ImageCreatingOptions(preloadAll: true, maxDecodedByteCount: twoFrames)
            #expect(
                codingErrorReason { _ = try KingfisherImage.decode(data: data, options: preloaded) }
                    == .tooManyPixels(format: format, width: width, height: height, frameCount: 3, limit: twoFrames / 4))
            // Through the options a manager passes on.
            let parsed = KingfisherParsedOptionsInfo([.preloadAllAnimationData, .maxDecodedByteCount(twoFrames)])
            #expect(DefaultImageProcessor.default.process(item: .data(data), options: parsed) == nil)
            #expect(
                DefaultImageProcessor.default.process(item: .data(data), options: KingfisherParsedOptionsInfo([.preloadAllAnimationData]))
                    != nil)
        }
    }

    @Test func corruptedJPEGBodyIsRefused() throws {
        var data = try Fixtures.data("photo_baseline_444.jpg")
        // A Huffman table whose code counts add up to more codes than there are bytes: an error
        // libjpeg cannot step over, unlike stray bytes, which browsers skip.
        let table = data.firstRange(of: Data([0xFF, 0xC4]))!.lowerBound
        for i in (table + 5)..<(table + 21) { data[i] = 0xFF }
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        #expect(reason == .corruptedData(format: .JPEG, detail: "Bogus Huffman table definition"))
    }
}

/// Seeded random damage to real files of every format: every outcome is an image or a
/// ImageCodingError, never a crash or another error type.
@Suite(.timeLimit(.minutes(10))) struct MutatedInputTests {
    @Test(arguments: [
        "photo_progressive.jpg", "orientation_6.jpg", "photo_cmyk.jpg", "png_palette_trns.png",
        "png_rgb_16_adam7.png", "gif_disposal_previous.gif", "gif_interlaced.gif",
        "photo_lossy.webp", "photo_lossless.webp", "webp_animated.webp",
    ])
    func damagedFilesNeverCrash(_ file: String) throws {
        let original = try Fixtures.data(file)
        var random = SeededGenerator(state: UInt64(file.utf8.count) &* 7919)
        for _ in 0..<150 {
            var data = original
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<data.count, using: &random)
                data[index] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { data = data.prefix(Int.random(in: 1...data.count, using: &random)) }
            do {
                let image = try KingfisherImage.decode(data: data)
                #expect(image.frames.allSatisfy { $0.pixels.count == image.pixelWidth * image.pixelHeight * 4 })
                _ = try? KingfisherImage.downsampled(data: data, maxPixelSize: 16)
            } catch is ImageCodingError {
            } catch {
                Issue.record("\(file): unexpected error \(error)")
            }
        }
    }
}
