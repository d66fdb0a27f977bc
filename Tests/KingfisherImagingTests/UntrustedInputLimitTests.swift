// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Every limit on untrusted input is a setting with a default, and input over it is refused
/// (not attempted): frames, EXIF size, processor chains and parameters. (Pixels: BadInputTests;
/// response size and duration: ImageDownloaderTests and DownloadFaultTests.)
@Suite(.timeLimit(.minutes(10))) struct UntrustedInputLimitTests {
    @Test func defaults() {
        let options = ImageCreatingOptions()
        #expect(options.maxPixelCount == 100_000_000)
        #expect(options.maxFrameCount == 5_000)
        #expect(options.maxEXIFByteCount == 1 << 20)
        #expect(options.maxDecodedByteCount == 400 << 20)
        #expect(KingfisherParsedOptionsInfo(nil).imageCreatingOptions.maxDecodedByteCount == 400 << 20)
        #expect(KingfisherParsedOptionsInfo(nil).imageCreatingOptions.maxFrameCount == 5_000)
        #expect(ImageProcessorSpec.defaultMaxStepCount == 32)
        #expect(BlurImageProcessor.maxBlurRadius == 1_000)
        #expect(ImageDownloader(name: "limits").maxDownloadDuration == 120)
    }

    @Test(arguments: [("gif_disposal_none.gif", ImageFileFormat.GIF), ("webp_animated.webp", .WebP)])
    func framesOverTheLimitAreRefused(_ file: String, format: ImageFileFormat) throws {
        let data = try Fixtures.data(file)  // 3 frames
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(maxFrameCount: 2)) }
        #expect(reason == .tooManyFrames(format: format, frameCount: 3, limit: 2))
        #expect(reason?.errorCode == 6008)
        #expect(try KingfisherImage.decode(data: data, options: ImageCreatingOptions(maxFrameCount: 3)).frames.count == 3)
        // Through the options a manager passes on.
        let parsed = KingfisherParsedOptionsInfo([.maxFrameCount(2)])
        #expect(DefaultImageProcessor.default.process(item: .data(data), options: parsed) == nil)
        // Only the first frame: within any limit.
        let first = ImageCreatingOptions(onlyFirstFrame: true, maxFrameCount: 1)
        #expect(try KingfisherImage.decode(data: data, options: first).frames.count == 1)
    }

    @Test func exifOverTheLimitIsIgnored() throws {
        let data = try Fixtures.data("orientation_6.jpg")
        let upright = try KingfisherImage.decode(data: data)
        let stored = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(maxEXIFByteCount: 16))
        // Orientation 6 turns the stored image a quarter: ignoring the EXIF keeps it as stored.
        #expect(upright.pixelWidth == stored.pixelHeight && upright.pixelHeight == stored.pixelWidth)
        #expect(upright.pixelWidth != upright.pixelHeight)
        // Through the options a manager passes on.
        let parsed = KingfisherParsedOptionsInfo([.maxEXIFByteCount(16)])
        #expect(parsed.imageCreatingOptions.maxEXIFByteCount == 16)
        #expect(DefaultImageProcessor.default.process(item: .data(data), options: parsed)?.pixelWidth == stored.pixelWidth)
    }

    @Test func processorChainsOverTheLimitAreRefused() throws {
        let step = "tint(#00000010)"
        #expect(try ImageProcessorSpec.processors(from: Array(repeating: step, count: 32).joined(separator: "|>")).count == 32)
        let long = Array(repeating: step, count: 33).joined(separator: "|>")
        #expect {
            _ = try ImageProcessorSpec.processor(from: long)
        } throws: { error in
            guard case ImageProcessingError.invalidSpec(_, let detail) = error else { return false }
            return detail.contains("33 steps, over the limit of 32")
        }
        #expect(try ImageProcessorSpec.processors(from: long, maxStepCount: 40).count == 33)
        // A million steps is refused without parsing them.
        let huge = String(repeating: "blackwhite|>", count: 1_000_000) + "blackwhite"
        #expect(throws: ImageProcessingError.self) { _ = try ImageProcessorSpec.processors(from: huge) }
    }

    @Test(arguments: [
        "blur(1000000000)", "resize(1000000x1000000)", "round(1e12)", "border(#000000,1e9)", "blur(nan)",
        "resize(infxinf)", "crop(10x10,nan,0.5)",
    ])
    func specParametersOutOfRangeAreRefused(_ spec: String) {
        #expect(throws: ImageProcessingError.self) { _ = try ImageProcessorSpec.processor(from: spec) }
    }

    @Test func processorParametersOutOfRangeAreRefusedNotAttempted() {
        let image = makeTestImage(width: 8, height: 8)
        let options = KingfisherParsedOptionsInfo(nil)
        #expect(BlurImageProcessor(blurRadius: 1e9).process(item: .image(image), options: options) == nil)
        #expect(BlurImageProcessor(blurRadius: .nan).process(item: .image(image), options: options) == nil)
        #expect(BlurImageProcessor(blurRadius: 1_000).process(item: .image(image), options: options) != nil)
        // The drawing API clamps instead (it returns an image, never nil).
        #expect(image.kf.blurred(withRadius: 1e300).pixelWidth == 8)
        let huge = CGSize(width: 1e6, height: 1e6)
        #expect(ResizingImageProcessor(referenceSize: huge).process(item: .image(image), options: options) == nil)
        #expect(RoundCornerImageProcessor(cornerRadius: 4, targetSize: huge).process(item: .image(image), options: options) == nil)
        // Not-finite crops leave the image as it is.
        for anchor in [CGPoint(x: CGFloat.nan, y: 0.5), CGPoint(x: 0.5, y: -CGFloat.infinity)] {
            let cropped = CroppingImageProcessor(size: CGSize(width: 4, height: 4), anchor: anchor)
                .process(item: .image(image), options: options)
            #expect(cropped?.pixelWidth == 8)
        }
        #expect(image.kf.crop(to: CGSize(width: CGFloat.infinity, height: 2), anchorOn: .zero).pixelWidth == 8)
    }
}
