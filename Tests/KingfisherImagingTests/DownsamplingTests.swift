// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Downsampled decoding: straight to the smallest covering scale, then an exact resample.
@Suite(.timeLimit(.minutes(10))) struct DownsamplingTests {
    /// A JPEG of a smooth photo-like pattern, made with our own encoder.
    static func jpeg(width: Int, height: Int) throws -> Data {
        try makeTestImage(width: width, height: height).encoded(as: .JPEG, compressionQuality: 0.9)
    }

    @Test func scalesTheLongestSideToTheMaximumKeepingTheAspectRatio() throws {
        let data = try Self.jpeg(width: 800, height: 600)
        let image = try KingfisherImage.downsampled(data: data, maxPixelSize: 100)
        #expect(image.pixelWidth == 100 && image.pixelHeight == 75)
    }

    @Test func aDownsampledImageKeepsNoOriginalData() throws {
        let image = try KingfisherImage.downsampled(data: try Self.jpeg(width: 800, height: 600), maxPixelSize: 100)
        #expect(image.originalData == nil)
    }

    @Test func neverEnlarges() throws {
        let data = try Self.jpeg(width: 64, height: 48)
        let image = try KingfisherImage.downsampled(data: data, maxPixelSize: 500)
        #expect(image.pixelWidth == 64 && image.pixelHeight == 48)
    }

    @Test func matchesAFullDecodeResampledToTheSameSize() throws {
        let data = try Self.jpeg(width: 960, height: 640)
        let thumbnail = try KingfisherImage.downsampled(data: data, maxPixelSize: 120)
        let reference = try KingfisherImage.decode(data: data).resized(toFit: 120)
        #expect(thumbnail.pixelWidth == reference.pixelWidth && thumbnail.pixelHeight == reference.pixelHeight)
        let quality = psnr(thumbnail.pixels, reference.pixels)
        #expect(quality > 30, "DCT-scaled thumbnail PSNR \(quality) dB")
    }

    @Test(arguments: ["photo_lossy.webp", "photo.png", "photo.gif", "webp_animated.webp", "gif_disposal_none.gif"])
    func everyFormatDownsamples(_ file: String) throws {
        let data = try Fixtures.data(file)
        let full = try KingfisherImage.decode(data: data)
        let image = try KingfisherImage.downsampled(data: data, maxPixelSize: 12)
        #expect(max(image.pixelWidth, image.pixelHeight) == 12)
        #expect(image.frames.count == full.frames.count)
    }

    @Test func orientationIsAppliedBeforeFitting() throws {
        let data = try Fixtures.data("orientation_6.jpg")  // stored 32x48, upright 48x32
        let image = try KingfisherImage.downsampled(data: data, maxPixelSize: 24)
        #expect(image.pixelWidth == 24 && image.pixelHeight == 16)
        #expect(image.exifOrientation == 6)
        let upright = try Fixtures.reference("orientation.ref.png").resized(toFit: 24)
        #expect(psnr(image.pixels, upright.pixels) > 25)
    }

    @Test func kingfisherSpellingUsesPointsTimesScale() throws {
        let data = try Self.jpeg(width: 400, height: 200)
        let image = try #require(
            KingfisherWrapper<KFCrossPlatformImage>.downsampledImage(
                data: data, to: CGSize(width: 50, height: 50), scale: 2))
        #expect(image.pixelWidth == 100 && image.pixelHeight == 50)
        #expect(image.scale == 2)
        #expect(image.size == CGSize(width: 50, height: 25))
    }

    @Test func aZeroSizeGivesTheImageAtItsOwnSize() throws {
        let data = try Self.jpeg(width: 400, height: 200)
        let image = try #require(KingfisherWrapper<KFCrossPlatformImage>.downsampledImage(data: data, to: .zero, scale: 2))
        #expect(image.pixelWidth == 400 && image.pixelHeight == 200)
        #expect(image.scale == 2)
    }

    @Test func resamplingWeightsColourByAlpha() throws {
        // Opaque red next to fully transparent green: no green may bleed into the result.
        var pixels = [UInt8]()
        for _ in 0..<8 { for x in 0..<8 { pixels += x < 4 ? [255, 0, 0, 255] : [0, 255, 0, 0] } }
        let image = KingfisherImage(width: 8, height: 8, pixels: pixels).resized(toFit: 3)
        for i in Swift.stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] > 16 {
            #expect(image.pixels[i + 1] < 8, "green leaked into \(Array(image.pixels[i..<i + 4]))")
        }
    }
}
