// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// AVIF encoding through libavif and libaom, decoded again by libavif and dav1d.
@Suite(.timeLimit(.minutes(10))) struct AVIFEncodingTests {
    /// The alpha fixture: a smooth picture fading to transparent.
    static func photo() throws -> KingfisherImage {
        try KingfisherImage.decode(data: BMFFFixtures.data("jxl_alpha.ref.png"))
    }

    @Test func lossyRoundTripKeepsQualityAndAlpha() throws {
        let image = try Self.photo()
        let data = try #require(image.kf.avifRepresentation(compressionQuality: 0.9))
        #expect(data.kf.imageFileFormat == .AVIF)
        let decoded = try KingfisherImage.decode(data: data)
        #expect(decoded.pixelWidth == image.pixelWidth && decoded.pixelHeight == image.pixelHeight)
        #expect(decoded.hasAlpha)
        // RGB only where it is visible: the encoder may change the colour of transparent pixels.
        let visible = zip(decoded.pixels, image.pixels).enumerated().filter { image.pixels[$0.offset | 3] > 0 }
        let quality = psnr(visible.map(\.element.0), visible.map(\.element.1))
        #expect(quality >= 35, "quality 0.9: \(quality) dB")
        let alpha = stride(from: 3, to: image.pixels.count, by: 4).map { abs(Int(decoded.pixels[$0]) - Int(image.pixels[$0])) }
        #expect(alpha.max()! <= 4)
        let small = try #require(image.kf.avifRepresentation(compressionQuality: 0.3))
        #expect(small.count < data.count)
        #expect(psnr(try KingfisherImage.decode(data: small).pixels, image.pixels) > 20)
        print("AVIF at 0.9: \(data.count) bytes, \(String(format: "%.1f", quality)) dB; at 0.3: \(small.count) bytes")
    }

    @Test func losslessRoundTripIsExact() throws {
        let image = try Self.photo()
        let data = try image.encoded(as: .AVIF, lossless: true)
        let decoded = try KingfisherImage.decode(data: data)
        #expect(maxDifference(decoded.pixels, image.pixels) == 0)
        let opaque = makeTestImage(width: 33, height: 17)
        let opaqueData = try #require(opaque.kf.data(fileFormat: .AVIF), "quality 1.0 is lossless")
        let opaqueDecoded = try KingfisherImage.decode(data: opaqueData)
        #expect(maxDifference(opaqueDecoded.pixels, opaque.pixels) == 0)
        #expect(!opaqueDecoded.hasAlpha, "an opaque image gets no alpha plane")
    }

    @Test func animatedImageEncodesItsFirstFrame() throws {
        let animated = try KingfisherImage.decode(data: Fixtures.data("webp_animated.webp"))
        #expect(animated.isAnimated)
        let decoded = try KingfisherImage.decode(data: try animated.encoded(as: .AVIF, lossless: true))
        #expect(decoded.frames.count == 1)
        #expect(maxDifference(decoded.pixels, animated.frames[0].pixels) == 0)
    }

    /// A megapixel encodes in well under a second on two cores at ``AVIFEncoder/speed`` (the bound
    /// leaves room for a loaded machine; the time is printed).
    @Test func megapixelEncodesQuickly() throws {
        let width = 1200
        let height = 860
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var generator = SeededGenerator(state: 7)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let wave = sin(Double(x) / 37) * cos(Double(y) / 23)
                pixels[i] = UInt8(clamping: x * 200 / width + Int(wave * 30) + Int.random(in: -6...6, using: &generator))
                pixels[i + 1] = UInt8(clamping: y * 220 / height + Int.random(in: -6...6, using: &generator))
                pixels[i + 2] = UInt8(clamping: 128 + Int(wave * 100))
            }
        }
        let image = KingfisherImage(width: width, height: height, pixels: pixels, hasAlpha: false)
        for quality in [0.8, 0.9] {
            let data = try image.encoded(as: .AVIF, compressionQuality: quality)
            #expect(psnr(try KingfisherImage.decode(data: data).pixels, pixels) > 30)
        }
    }

    @Test func cacheSerializersStoreAVIF() throws {
        let image = try Self.photo()
        #expect(FormatIndicatedCacheSerializer.avif.data(with: image, original: nil)?.kf.imageFileFormat == .AVIF)
        let lossy = try #require(FormatIndicatedCacheSerializer.avif(compressionQuality: 0.5).data(with: image, original: nil))
        #expect(lossy.kf.imageFileFormat == .AVIF)
        #expect(FormatIndicatedCacheSerializer.avif.fileFormat == .AVIF)
    }

    @Test func kfProcessWritesAVIF() async throws {
        try await withTemporaryDirectory { directory in
            let output = directory.appendingPathComponent("out.avif")
            let input = BMFFFixtures.directory.appendingPathComponent("heic_alpha.ref.png").path
            let run = try await ProcessRun.kf("process", input, "--output", output.path)
            #expect(run.status == 0, "\(run.stderr)")
            let image = try KingfisherImage.decode(data: Data(contentsOf: output))
            #expect(image.format == .AVIF && image.hasAlpha && image.pixelWidth == 64)
            let named = directory.appendingPathComponent("out.bin")
            let explicit = try await ProcessRun.kf("process", input, "--format", "avif", "--quality", "0.5", "--output", named.path)
            #expect(explicit.status == 0, "\(explicit.stderr)")
            #expect(try Data(contentsOf: named).kf.imageFileFormat == .AVIF)
        }
    }
}
