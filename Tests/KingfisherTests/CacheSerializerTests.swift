// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

@Suite(.timeLimit(.minutes(10))) struct CacheSerializerTests {
    let options = KingfisherParsedOptionsInfo(nil)

    @Test func defaultSerializerUsesTheOriginalFormat() throws {
        let original = try Fixtures.data("photo_baseline_420.jpg")
        let image = try KingfisherImage.decode(data: original)
        let data = try #require(DefaultCacheSerializer.default.data(with: image, original: original))
        #expect(data.kf.imageFormat == .JPEG)
        #expect(data != original, "re-encoded unless preferCacheOriginalData")
        let back = try #require(DefaultCacheSerializer.default.image(with: data, options: options))
        #expect(back.pixelWidth == image.pixelWidth)
    }

    @Test func defaultSerializerPrefersOriginalDataWhenAsked() throws {
        let original = try Fixtures.data("photo_lossy.webp")
        var serializer = DefaultCacheSerializer()
        serializer.preferCacheOriginalData = true
        #expect(serializer.originalDataUsed)
        let image = try KingfisherImage.decode(data: original)
        #expect(serializer.data(with: image, original: original) == original)
    }

    @Test func defaultSerializerWithoutOriginalWritesPNGOrTheGIF() throws {
        let gif = try KingfisherImage.decode(data: Fixtures.data("gif_disposal_none.gif"))
        #expect(DefaultCacheSerializer.default.data(with: gif, original: nil) == gif.originalData)
        let plain = makeTestImage(width: 4, height: 4)
        #expect(DefaultCacheSerializer.default.data(with: plain, original: nil)?.kf.imageFormat == .PNG)
    }

    @Test func formatIndicatedSerializerWritesItsFormat() throws {
        let image = makeTestImage(width: 10, height: 10, alpha: true)
        #expect(FormatIndicatedCacheSerializer.png.data(with: image, original: nil)?.kf.imageFormat == .PNG)
        #expect(FormatIndicatedCacheSerializer.jpeg.data(with: image, original: nil)?.kf.imageFormat == .JPEG)
        #expect(FormatIndicatedCacheSerializer.jpeg(compressionQuality: 0.5).data(with: image, original: nil)?.kf.imageFormat == .JPEG)
        #expect(FormatIndicatedCacheSerializer.gif.data(with: image, original: nil)?.kf.imageFormat == .GIF)
        #expect(FormatIndicatedCacheSerializer.webp.data(with: image, original: nil)?.kf.imageFileFormat == .WebP)
    }

    @Test func formatIndicatedSerializerFallsBackToTheOriginal() throws {
        let original = try Fixtures.data("photo_lossy.webp")
        let image = try KingfisherImage.decode(data: original)
        let heic = FormatIndicatedCacheSerializer(fileFormat: .HEIC, compressionQuality: nil)
        let data = try #require(heic.data(with: image, original: original))
        #expect(data.kf.imageFileFormat == .WebP)
    }

    @Test func optionsParseWithLastOccurrenceWinning() {
        let parsed = KingfisherParsedOptionsInfo([.scaleFactor(2), .onlyLoadFirstFrame, .maxPixelCount(10), .scaleFactor(3)])
        #expect(parsed.scaleFactor == 3)
        #expect(parsed.onlyLoadFirstFrame)
        #expect(parsed.imageCreatingOptions.maxPixelCount == 10)
    }
}
