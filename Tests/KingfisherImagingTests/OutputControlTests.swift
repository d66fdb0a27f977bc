// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// The output steps change the encoding, not the pixels: quality, progressive JPEG and
/// interlaced PNG, lossless WebP, effort, and the byte bound of `maxbytes`.
@Suite struct OutputControlTests {
    private static let photo: KingfisherImage = {
        let data = try! SaliencyFixtures.folder.data("face_middle_textured.jpg")
        return try! KingfisherImage.decode(data: data)
    }()

    @Test func outputStepsAreGatheredAndLeaveThePixelSteps() throws {
        let chain = try ImageProcessorSpec.processor(from: "resize(10x10)|>quality(60)|>progressive|>effort(3)|>maxbytes(5000)|>lossless")
        let controls = chain.outputControls
        #expect(controls.quality == 60 && controls.progressive && controls.effort == 3 && controls.maxBytes == 5000 && controls.lossless)
        #expect(try chain.withoutOutputControls.identifier == ImageProcessorSpec.processor(from: "resize(10x10)").identifier)
        #expect(controls.keyDescription == "q60,progressive,lossless,e3,max5000")
        // A later step wins, and presets carry theirs.
        let grammar = try ProcessorGrammar.standard.withPresets([.init(name: "small", spec: "quality(40)|>resize(8x8)")])
        let preset = try grammar.processor(from: "quality(90)|>preset(small)")
        #expect(preset.outputControls.quality == 40)
        #expect(try preset.withoutOutputControls.identifier == ImageProcessorSpec.processor(from: "resize(8x8)").identifier)
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "quality(0)") }
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "effort(10)") }
    }

    /// The JPEG markers up to the start of scan.
    private static func markers(_ data: Data) -> [UInt8] {
        var markers: [UInt8] = []
        var index = 2
        let bytes = [UInt8](data)
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            index += 2 + Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
        }
        return markers
    }

    @Test func progressiveJPEGsHaveSOF2AndInterlacedPNGsTheirFlag() throws {
        let image = Self.photo
        let progressive = try image.encoded(as: .JPEG, options: ImageEncodingOptions(compressionQuality: 0.8, progressive: true))
        let baseline = try image.encoded(as: .JPEG, options: ImageEncodingOptions(compressionQuality: 0.8))
        #expect(Self.markers(progressive).contains(0xC2) && !Self.markers(progressive).contains(0xC0))
        #expect(Self.markers(baseline).contains(0xC0) && !Self.markers(baseline).contains(0xC2))
        let (progressivePixels, baselinePixels) = (
            try KingfisherImage.decode(data: progressive).pixels, try KingfisherImage.decode(data: baseline).pixels
        )
        #expect(psnr(progressivePixels, baselinePixels) > 45)

        let small = image.kf.resize(to: CGSize(width: 60, height: 40))
        let interlaced = try small.encoded(as: .PNG, options: ImageEncodingOptions(progressive: true))
        let plain = try small.encoded(as: .PNG)
        // IHDR: 8-byte signature, length, "IHDR", width, height, depth, colour type, compression, filter, interlace.
        #expect(interlaced[8 + 8 + 12] == 1 && plain[8 + 8 + 12] == 0)
        let deinterlaced = try KingfisherImage.decode(data: interlaced)
        #expect(deinterlaced.pixels == small.pixels)
        // Effort is zlib's level: 0 stores, 9 squeezes.
        let stored = try small.encoded(as: .PNG, options: ImageEncodingOptions(effort: 0))
        let unstored = try KingfisherImage.decode(data: stored)
        #expect(stored.count > plain.count && unstored.pixels == small.pixels)
    }

    @Test func losslessWebPKeepsEveryPixelAndEffortChangesTheWork() throws {
        let small = Self.photo.kf.resize(to: CGSize(width: 90, height: 60))
        let lossless = try small.encoded(as: .WebP, options: ImageEncodingOptions(lossless: true, effort: 2))
        let exact = try KingfisherImage.decode(data: lossless)
        #expect(exact.pixels == small.pixels)
        let fast = try small.encoded(as: .WebP, options: ImageEncodingOptions(compressionQuality: 0.7, effort: 0))
        let thorough = try small.encoded(as: .WebP, options: ImageEncodingOptions(compressionQuality: 0.7, effort: 9))
        #expect(fast != thorough)
    }

    @Test(arguments: [ImageFileFormat.JPEG, .WebP])
    func maxbytesFitsTheHighestQualityItFinds(_ format: ImageFileFormat) throws {
        let image = Self.photo
        let full = try image.encoded(as: format, options: ImageEncodingOptions(compressionQuality: 0.9))
        var encodes = 0
        let budgets = [0.8, 0.5, 0.3, 0.15].map { Int(Double(full.count) * $0) }
        for budget in budgets {
            let bounded = try image.encoded(as: format, options: ImageEncodingOptions(compressionQuality: 0.9), maxBytes: budget)
            #expect(bounded.fits && bounded.data.count <= budget, "\(format) \(budget): \(bounded.data.count) bytes")
            // Three qualities up no longer fits, or the output is within 20% of the bound.
            if bounded.quality < 87, bounded.data.count < budget * 80 / 100 {
                let higher = try image.encoded(
                    as: format, options: ImageEncodingOptions(compressionQuality: CGFloat(bounded.quality + 3) / 100))
                #expect(higher.count > budget, "\(format) \(budget): quality \(bounded.quality) + 3 fits as well")
            }
            encodes += bounded.encodeCount
        }
        print("maxbytes \(format): \(Double(encodes) / Double(budgets.count)) encodes on average")
        #expect(Double(encodes) / Double(budgets.count) <= 3)
        // What fits at the asked quality is encoded once; what cannot fit is the lowest quality.
        #expect(
            try image.encoded(as: format, options: ImageEncodingOptions(compressionQuality: 0.9), maxBytes: full.count).encodeCount == 1)
        let impossible = try image.encoded(as: format, options: ImageEncodingOptions(compressionQuality: 0.9), maxBytes: 300)
        #expect(!impossible.fits && impossible.quality == 1)
    }
}

extension OutputControlTests {
    @Test func keepICCKeepsTheProfileWhereTheFormatCarriesIt() throws {
        let data = try Fixtures.data("color/displayp3.jpg")
        let kept = try ImageProcessorSpec.processor(from: "resize(40x30)|>keep(icc)").process(.data(data), in: ImageProcessingContext())
        let converted = try ImageProcessorSpec.processor(from: "resize(40x30)").process(.data(data), in: ImageProcessingContext())
        #expect(kept.colorProfile != nil && converted.colorProfile == nil)
        let iccMarker = Data("ICC_PROFILE".utf8)
        #expect(try kept.encoded(as: .JPEG).firstRange(of: iccMarker) != nil)
        #expect(try converted.encoded(as: .JPEG).firstRange(of: iccMarker) == nil)
        // A format that does not carry it gets the pixels in sRGB.
        let jxl = try KingfisherImage.decode(data: kept.encoded(as: .JXL, options: ImageEncodingOptions(lossless: true)))
        #expect(maxDifference(jxl.pixels, converted.pixels) <= 2)
        #expect(maxDifference(kept.pixels, converted.pixels) > 2, "the kept pixels are Display P3 values")
    }
}
