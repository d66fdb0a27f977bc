// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Processors say why they failed: the imaging module's throwing form, and how Kingfisher's
/// `ImageProcessor` path carries those errors without decoding twice.
@Suite(.timeLimit(.minutes(10))) struct ThrowingProcessingTests {
    let html = Data("<html><body>not an image</body></html>".utf8)

    @Test func aBuiltInProcessorThrowsTheDecodingErrorOfData() {
        #expect(throws: ImageCodingError.unknownFormat(description: "an HTML document")) {
            try BlurImageProcessor(blurRadius: 2).process(.data(html), in: ImageProcessingContext())
        }
    }

    @Test func anOutputOverThePixelLimitIsRefusedBeforeAllocating() throws {
        let context = ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(maxPixelCount: 10_000))
        let processor = ResizingImageProcessor(referenceSize: CGSize(width: 200, height: 100))
        #expect(
            throws: ImageProcessingError.outputTooLarge(
                processor: processor.identifier, width: 200, height: 100,
                frameCount: 1, limit: 10_000)
        ) {
            try processor.process(.image(makeTestImage(width: 8, height: 8)), in: context)
        }
    }

    @Test func aBlurRadiusOverTheLimitIsAnInvalidParameter() {
        #expect {
            try BlurImageProcessor(blurRadius: 2_000).process(.image(makeTestImage(width: 8, height: 8)), in: ImageProcessingContext())
        } throws: { error in
            guard case ImageProcessingError.invalidParameter = error else { return false }
            return true
        }
    }

    @Test func theContextScaleAppliesToSizesInPoints() throws {
        let context = ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(scale: 2))
        let image = try ResizingImageProcessor(referenceSize: CGSize(width: 10, height: 5))
            .process(.image(makeTestImage(width: 40, height: 40)), in: context)
        #expect(image.pixelWidth == 20 && image.pixelHeight == 10 && image.scale == 2)
    }

    @Test func aChainRunsItsStepsInOrderUnderKingfishersIdentifier() throws {
        let resize = ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 20))
        let crop = CroppingImageProcessor(size: CGSize(width: 10, height: 4))
        let chain = ImageProcessorChain([resize, crop])
        #expect(chain.identifier == (resize |> crop).identifier)
        let image = try chain.process(.image(makeTestImage(width: 64, height: 64)), in: ImageProcessingContext())
        #expect(image.pixelWidth == 10 && image.pixelHeight == 4)
    }

    @Test func anEmptyChainDecodesLikeTheDefaultProcessor() throws {
        let chain = ImageProcessorChain([])
        #expect(chain.identifier == DefaultImageProcessor.default.identifier)
        let image = try chain.process(.data(Fixtures.data("photo.png")), in: ImageProcessingContext())
        #expect(image.pixelWidth == 190)
    }

    @Test func kingfishersPathReportsTheDecodingErrorOfABuiltInProcessor() {
        let options = KingfisherParsedOptionsInfo(nil)
        #expect {
            try DownsamplingImageProcessor(size: CGSize(width: 10, height: 10)).processedImage(from: html, options: options)
        } throws: { error in
            guard case .unknownFormat? = (error as? KingfisherError)?.imageCodingError else { return false }
            return true
        }
    }

    @Test func aCompositionKeepsTheErrorOfTheStepThatFailed() {
        let options = KingfisherParsedOptionsInfo(nil)
        let composed = BlurImageProcessor(blurRadius: 1) |> TintImageProcessor(tint: KingfisherColor(red: 1, green: 0, blue: 0))
        #expect {
            try composed.processedImage(from: html, options: options)
        } throws: { error in
            guard case .unknownFormat? = (error as? KingfisherError)?.imageCodingError else { return false }
            return true
        }
    }

    @Test func aRefusedOutputIsProcessingFailedForKingfisher() {
        let options = KingfisherParsedOptionsInfo([.maxPixelCount(100)])
        let processor = ResizingImageProcessor(referenceSize: CGSize(width: 50, height: 50))
        #expect(processor.process(item: .image(makeTestImage(width: 8, height: 8)), options: options) == nil)
        #expect {
            try processor.processedImage(from: .image(makeTestImage(width: 8, height: 8)), options: options)
        } throws: { error in
            guard case KingfisherError.processorError(reason: .processingFailed(let failed, _)) = error else { return false }
            return failed.identifier == processor.identifier
        }
    }

    @Test func aCustomProcessorsNilIsProcessingFailed() {
        let refusing = GeneralProcessor(identifier: "refusing") { _, _ in nil }
        #expect {
            try refusing.processedImage(from: .image(makeTestImage(width: 4, height: 4)), options: KingfisherParsedOptionsInfo(nil))
        } throws: { error in
            guard case KingfisherError.processorError(reason: .processingFailed(let failed, _)) = error else { return false }
            return failed.identifier == "refusing"
        }
    }
}
