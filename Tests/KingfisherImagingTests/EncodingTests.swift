// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Encoding and decoding again, for every format.
@Suite(.timeLimit(.minutes(10))) struct EncodingTests {
    @Test func pngRoundTripIsExactWithAlpha() throws {
        let image = makeTestImage(width: 37, height: 23, alpha: true)
        let data = try #require(image.kf.pngRepresentation())
        #expect(data.kf.imageFormat == .PNG)
        let decoded = try KingfisherImage.decode(data: data)
        #expect(maxDifference(decoded.pixels, image.pixels) == 0)
        #expect(decoded.hasAlpha)
    }

    @Test func opaquePNGIsWrittenWithoutAlpha() throws {
        let image = makeTestImage(width: 16, height: 9)
        let data = try #require(image.kf.pngRepresentation())
        #expect(data[25] == 2, "colour type RGB")
        #expect(maxDifference(try KingfisherImage.decode(data: data).pixels, image.pixels) == 0)
    }

    @Test func jpegRoundTripKeepsQuality() throws {
        let image = makeTestImage(width: 64, height: 48)
        let high = try #require(image.kf.jpegRepresentation(compressionQuality: 0.95))
        let low = try #require(image.kf.jpegRepresentation(compressionQuality: 0.3))
        #expect(high.kf.imageFormat == .JPEG)
        #expect(low.count < high.count)
        let decoded = try KingfisherImage.decode(data: high)
        #expect(psnr(decoded.pixels, image.pixels) > 30)
    }

    @Test func jpegFlattensAlphaOntoWhite() throws {
        let transparent = KingfisherImage(width: 8, height: 8, pixels: [UInt8](repeating: 0, count: 8 * 8 * 4))
        let data = try #require(transparent.kf.jpegRepresentation(compressionQuality: 1))
        let decoded = try KingfisherImage.decode(data: data)
        #expect(decoded.pixels.allSatisfy { $0 >= 250 })
    }

    @Test func webpLosslessRoundTripIsExact() throws {
        let image = makeTestImage(width: 40, height: 30, alpha: true)
        let lossless = try #require(image.kf.webpRepresentation(lossless: true))
        #expect(lossless.kf.imageFileFormat == .WebP)
        #expect(maxDifference(try KingfisherImage.decode(data: lossless).pixels, image.pixels) == 0)
    }

    @Test func webpLossyRoundTripIsClose() throws {
        let image = makeTestImage(width: 40, height: 30, alpha: true)
        let lossy = try #require(image.kf.webpRepresentation(compressionQuality: 0.9))
        let decoded = try KingfisherImage.decode(data: lossy)
        #expect(decoded.pixelWidth == 40 && decoded.hasAlpha)
        #expect(psnr(decoded.pixels, image.pixels) > 25)
    }

    @Test func animatedWebPRoundTripKeepsTheAnimation() throws {
        let source = try KingfisherImage.decode(data: Fixtures.data("webp_animated.webp"))
        let processed = KingfisherImage(
            width: source.pixelWidth, height: source.pixelHeight, frames: source.frames,
            loopCount: source.loopCount)
        let data = try processed.encoded(as: .WebP, lossless: true)
        let decoded = try KingfisherImage.decode(data: data)
        #expect(decoded.frames.count == 3)
        #expect(decoded.loopCount == 2)
        #expect(decoded.frames.map(\.duration) == [0.1, 0.2, 0.3])
        for (a, b) in zip(decoded.frames, source.frames) { #expect(maxDifference(a.pixels, b.pixels) == 0) }
    }

    @Test func unmodifiedGIFIsServedByteForByte() throws {
        let data = try Fixtures.data("gif_disposal_previous.gif")
        let image = try KingfisherImage.decode(data: data)
        #expect(image.kf.gifRepresentation() == data)
    }

    @Test func processedAnimationBecomesAnAnimatedGIF() throws {
        let source = try KingfisherImage.decode(data: Fixtures.data("gif_disposal_background.gif"))
        let copy = KingfisherImage(width: source.pixelWidth, height: source.pixelHeight, frames: source.frames, loopCount: 3)
        #expect(copy.kf.gifRepresentation() == nil && copy.kf.data(format: .GIF) == nil, "Kingfisher's: only a GIF's own bytes")
        let data = try copy.encoded(as: .GIF)
        #expect(data != source.originalData)
        let decoded = try KingfisherImage.decode(data: data)
        #expect(decoded.frames.count == source.frames.count)
        #expect(decoded.loopCount == 3)
        for (a, b) in zip(decoded.frames, source.frames) {
            #expect(maxDifference(a.pixels, b.pixels) == 0, "few-colour frames are kept exactly")
            #expect(abs(a.duration - b.duration) < 0.001)
        }
    }

    @Test func photoGIFIsQuantisedClosely() throws {
        let image = makeTestImage(width: 64, height: 64)
        let data = try image.encoded(as: .GIF)
        let decoded = try KingfisherImage.decode(data: data)
        #expect(decoded.frames.count == 1)
        #expect(psnr(decoded.pixels, image.pixels) > 28)
    }

    @Test func gifKeepsTransparency() throws {
        let image = makeTestImage(width: 20, height: 10, alpha: true)
        let decoded = try KingfisherImage.decode(data: try image.encoded(as: .GIF))
        for i in Swift.stride(from: 0, to: image.pixels.count, by: 4) {
            #expect((decoded.pixels[i + 3] == 0) == (image.pixels[i + 3] < 128))
        }
    }

    @Test func unknownFormatEncodesAsPNG() throws {
        let image = makeTestImage(width: 5, height: 5)
        #expect(image.kf.data(format: .unknown)?.kf.imageFormat == .PNG)
        #expect(throws: ImageCodingError.self) { try image.encoded(as: .HEIC) }
    }
}
