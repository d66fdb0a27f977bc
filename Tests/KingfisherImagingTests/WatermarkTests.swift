// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Watermarks land where their position says, with their opacity and scale; `dpr(N)` multiplies
/// every size of a chain; presets run their chains under a name.
@Suite struct WatermarkTests {
    private static func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> KingfisherImage {
        KingfisherImage(width: width, height: height, pixels: Array((0..<(width * height)).map { _ in rgba }.joined()))
    }

    private static let blue: [UInt8] = [0, 0, 255, 255]
    private static let red: [UInt8] = [255, 0, 0, 255]
    private static let grammar = ProcessorGrammar.standard.withWatermarks([Watermark(name: "logo", image: solid(10, 6, red))])

    private static func marked(
        _ spec: String, on image: KingfisherImage = solid(40, 30, blue)
    ) throws -> (KingfisherImage, (Int, Int) -> [UInt8]) {
        let result = try grammar.processor(from: spec).process(.image(image), in: ImageProcessingContext())
        return (result, { x, y in Array(result.pixels[((y * result.pixelWidth + x) * 4)..<((y * result.pixelWidth + x) * 4 + 4)]) })
    }

    /// Which pixels of a 40x30 result are red: the watermark's box, exactly.
    private static func redBox(_ pixel: (Int, Int) -> [UInt8]) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        let red = (0..<30).flatMap { y in (0..<40).compactMap { x in pixel(x, y) == Self.red ? (x, y) : nil } }
        guard let first = red.first, let last = red.last else { return nil }
        return (first.0...last.0, first.1...last.1)
    }

    @Test func positionsPlaceTheWatermark() throws {
        let expected: [(String, ClosedRange<Int>, ClosedRange<Int>)] = [
            ("center", 15...24, 12...17), ("nw", 0...9, 0...5), ("se", 30...39, 24...29), ("north", 15...24, 0...5),
            ("west", 0...9, 12...17), ("sw", 0...9, 24...29),
        ]
        for (position, x, y) in expected {
            let (_, pixel) = try Self.marked("watermark(logo,\(position))")
            let box = Self.redBox(pixel)
            #expect(box?.x == x && box?.y == y, "\(position): \(String(describing: box))")
            // Everything else is untouched.
            #expect(pixel(x.lowerBound == 0 ? 39 : 0, y.lowerBound == 0 ? 29 : 0) == Self.blue)
        }
        let (_, tiled) = try Self.marked("watermark(logo,tile)")
        #expect((0..<30).allSatisfy { y in (0..<40).allSatisfy { x in tiled(x, y) == Self.red } })
    }

    @Test func opacityAndScale() throws {
        let (_, half) = try Self.marked("watermark(logo,nw,0.5)")
        #expect(half(0, 0) == [128, 0, 128, 255] && half(10, 0) == Self.blue)
        let (_, clear) = try Self.marked("watermark(logo,nw,0)")
        #expect(clear(0, 0) == Self.blue)
        // Half the image's width: 20 x 12.
        let (_, scaled) = try Self.marked("watermark(logo,nw,1,0.5)")
        #expect(Self.redBox(scaled).map { [$0.x, $0.y] } == [0...19, 0...11])
        // A watermark larger than the image is cut at its edges.
        let (small, big) = try Self.marked("watermark(logo)", on: Self.solid(4, 4, Self.blue))
        #expect(small.pixelWidth == 4 && big(0, 0) == Self.red && big(3, 3) == Self.red)
        // Every frame of an animation is marked.
        let animation = KingfisherImage(
            width: 40, height: 30,
            frames: [
                ImageFrame(pixels: Self.solid(40, 30, Self.blue).pixels, duration: 0.1),
                ImageFrame(pixels: Self.solid(40, 30, [0, 255, 0, 255]).pixels, duration: 0.2),
            ])
        let (marked, _) = try Self.marked("watermark(logo,se)", on: animation)
        #expect(marked.frames.allSatisfy { Array($0.pixels[(29 * 40 + 39) * 4..<(29 * 40 + 39) * 4 + 4]) == Self.red })
    }

    @Test func namesAreCheckedAndTheImageIsPartOfTheIdentifier() throws {
        #expect(throws: ImageProcessingError.self) { try Self.grammar.processor(from: "watermark(other)") }
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "watermark(logo)") }
        let other = ProcessorGrammar.standard.withWatermarks([Watermark(name: "logo", image: Self.solid(10, 6, Self.blue))])
        #expect(try other.processor(from: "watermark(logo)").identifier != Self.grammar.processor(from: "watermark(logo)").identifier)
        #expect(throws: ImageProcessingError.self) {
            try WatermarkImageProcessor(watermark: Watermark(name: "x", image: Self.solid(1, 1, Self.red)), opacity: 2)
                .process(.image(Self.solid(2, 2, Self.blue)), in: ImageProcessingContext())
        }
    }

    @Test func dprMultipliesEverySizeWhereverItStands() throws {
        let image = Self.solid(100, 100, Self.blue)
        for spec in ["resize(10x20)|>dpr(2)", "dpr(2)|>resize(10x20)"] {
            let result = try ImageProcessorSpec.processor(from: spec).process(.image(image), in: ImageProcessingContext())
            #expect((result.pixelWidth, result.pixelHeight) == (20, 40), "\(spec)")
        }
        let padded = try ImageProcessorSpec.processor(from: "resize(10x10)|>pad(1)|>dpr(3)").process(
            .image(image), in: ImageProcessingContext())
        #expect(padded.pixelWidth == 36)
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "dpr(6)") }
        #expect(
            try ImageProcessorSpec.processor(from: "dpr(2)|>blur(1)").identifier != ImageProcessorSpec.processor(from: "blur(1)").identifier
        )
    }

    @Test func presetsRunTheirChainsUnderTheirNames() throws {
        let grammar = try ProcessorGrammar.standard.withPresets([.init(name: "card", spec: "resize(40x30,fill)|>crop(40x30)|>round(4)")])
        #expect(
            try grammar.processor(from: "preset(card)").identifier
                == ImageProcessorSpec.processor(from: "resize(40x30,fill)|>crop(40x30)|>round(4)").identifier)
        // The built-in presets too.
        #expect(try grammar.processor(from: "preset(avatar)|>blur(1)").steps.count == 2)
        #expect(throws: ImageProcessingError.self) { try grammar.processor(from: "preset(poster)") }
        #expect(throws: ImageProcessingError.self) {
            try ProcessorGrammar.standard.withPresets([.init(name: "loop", spec: "preset(card)")])
        }
        #expect(throws: ImageProcessingError.self) { try ProcessorGrammar.standard.withPresets([.init(name: "bad", spec: "resize(1x)")]) }
    }
}
