// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// The editing steps (rotate, flip, extend, pad, trim, sharpen, pixelate, background) make the
/// pixels Pillow makes (Fixtures/editing), and keep to their limits.
@Suite struct ImageEditingTests {
    @Test(arguments: EditingFixtures.all)
    func makesWhatPillowMakes(_ entry: EditingFixtures.Entry) throws {
        let source = try EditingFixtures.folder.data(entry.source)
        let image = try ImageProcessorSpec.processor(from: entry.spec).process(.data(source), in: ImageProcessingContext())
        #expect(try entry.shortfall(of: image) == nil)
    }

    private static func image(_ width: Int, _ height: Int, scale: CGFloat = 1) -> KingfisherImage {
        KingfisherImage(
            width: width, height: height, pixels: (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 &* 7) }, scale: scale)
    }

    private static func run(_ spec: String, on image: KingfisherImage, scale: CGFloat = 1) throws -> KingfisherImage {
        try ImageProcessorSpec.processor(from: spec)
            .process(.image(image), in: ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(scale: scale)))
    }

    @Test func aFreeSideFollowsTheAspectRatioInEveryMode() throws {
        let image = Self.image(400, 200)
        for mode in ["", ",fit", ",fill", ",none"] {
            let wide = try Self.run("resize(100x0\(mode))", on: image)
            #expect((wide.pixelWidth, wide.pixelHeight) == (100, 50), "resize(100x0\(mode))")
            let tall = try Self.run("resize(0x150\(mode))", on: image)
            #expect((tall.pixelWidth, tall.pixelHeight) == (300, 150), "resize(0x150\(mode))")
        }
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "resize(0x0)") }
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "crop(0x10)") }
    }

    @Test func noenlargeLeavesASmallerSourceAsItIs() throws {
        let image = Self.image(80, 60)
        for spec in ["resize(200x200,fit,noenlarge)", "resize(200x100,fill,noenlarge)", "resize(160x0,noenlarge)"] {
            let result = try Self.run(spec, on: image)
            #expect(result === image, "\(spec)")
        }
        // Shrinking is unaffected, and a stretch keeps each side at most the source's.
        let fitted = try Self.run("resize(40x40,noenlarge,fit)", on: image)
        #expect((fitted.pixelWidth, fitted.pixelHeight) == (40, 30))
        let stretched = try Self.run("resize(40x100,noenlarge)", on: image)
        #expect((stretched.pixelWidth, stretched.pixelHeight) == (40, 60))
        #expect(
            ResizingImageProcessor(referenceSize: CGSize(width: 40, height: 0), mode: .aspectFit, upscale: false).identifier
                == "com.onevcat.Kingfisher.ResizingImageProcessor((40.0, 0.0), aspectFit, noenlarge)")
    }

    @Test func quarterTurnsComposeAndEveryFrameTurns() throws {
        let frames = (0..<3).map { (index: Int) -> ImageFrame in
            let pixels = (0..<(5 * 3 * 4)).map { (byte: Int) in UInt8(truncatingIfNeeded: byte * 3 + index) }
            return ImageFrame(pixels: pixels, duration: 0.1 * Double(index + 1))
        }
        let animation = KingfisherImage(width: 5, height: 3, frames: frames, loopCount: 2)
        let turned = try Self.run("rotate(90)|>rotate(90)|>rotate(90)|>rotate(90)", on: animation)
        #expect(turned.frames.map { $0.pixels } == animation.frames.map { $0.pixels })
        let once = try Self.run("rotate(90)", on: animation)
        #expect((once.pixelWidth, once.pixelHeight, once.frameCount, once.loopCount) == (3, 5, 3, 2))
        #expect(once.frames.map { $0.duration } == animation.frames.map { $0.duration })
        // Two mirror images are a half turn.
        let mirrored = try Self.run("flip(h)|>flip(v)", on: animation)
        let halfTurn = try Self.run("rotate(180)", on: animation)
        #expect(mirrored.frames.map { $0.pixels } == halfTurn.frames.map { $0.pixels })
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "rotate(45)") }
        #expect(throws: ImageProcessingError.self) {
            try RotatingImageProcessor(degrees: 45).process(.image(animation), in: ImageProcessingContext())
        }
    }

    @Test func sizesAreInPoints() throws {
        let image = Self.image(20, 10, scale: 2)
        let padded = try Self.run("pad(1,2,3,4)", on: image, scale: 2)
        #expect((padded.pixelWidth, padded.pixelHeight) == (20 + 4 + 8, 10 + 2 + 6))
        let extended = try Self.run("extend(15x15)", on: image, scale: 2)
        #expect((extended.pixelWidth, extended.pixelHeight) == (30, 30))
        // A block of 2 points is 4 pixels: the first row's first four pixels are one colour.
        let blocks = try Self.run("pixelate(2)", on: image, scale: 2).pixels
        #expect(Array(blocks[0..<4]) == Array(blocks[12..<16]) && Array(blocks[0..<4]) != Array(blocks[16..<20]))
    }

    @Test func growingStepsKeepToThePixelLimit() {
        let context = ImageProcessingContext(imageCreatingOptions: ImageCreatingOptions(maxPixelCount: 10_000))
        let image = Self.image(50, 50)
        for spec in ["extend(200x200)", "pad(100)"] {
            #expect("\(spec)") {
                _ = try ImageProcessorSpec.processor(from: spec).process(.image(image), in: context)
            } throws: { error in
                guard case .outputTooLarge = error as? ImageProcessingError else { return false }
                return true
            }
        }
    }

    @Test func trimLeavesAnImageWithoutABorderAndAUniformOneAsTheyAre() throws {
        let plain = KingfisherImage(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 256))
        #expect(try Self.run("trim", on: plain) === plain)
        let noisy = Self.image(30, 20)
        #expect(try Self.run("trim(0)", on: noisy) === noisy)
        // A given colour: the border of that colour goes whatever the corner pixel is.
        var pixels = [UInt8](repeating: 255, count: 10 * 10 * 4)
        for y in 3..<6 { for x in 2..<8 { pixels.replaceSubrange((y * 10 + x) * 4..<(y * 10 + x) * 4 + 3, with: [0, 0, 0]) } }
        pixels.replaceSubrange(0..<3, with: [9, 9, 9])
        let trimmed = try Self.run("trim(20,#FFFFFF)", on: KingfisherImage(width: 10, height: 10, pixels: pixels))
        #expect((trimmed.pixelWidth, trimmed.pixelHeight) == (8, 6))
    }

    @Test func badParametersAreRefusedInOneLine() {
        let image = Self.image(4, 4)
        let refused: [any ImageProcessing] = [
            SharpeningImageProcessor(sigma: 60), SharpeningImageProcessor(sigma: .nan),
            SharpeningImageProcessor(sigma: 1, amount: -1), PixelatingImageProcessor(blockSize: 0),
            PaddingImageProcessor(padding: -1), PaddingImageProcessor(padding: .infinity), TrimmingImageProcessor(threshold: 300),
        ]
        for processor in refused {
            #expect("\(processor.identifier)") {
                _ = try processor.process(.image(image), in: ImageProcessingContext())
            } throws: { error in
                guard case .invalidParameter = error as? ImageProcessingError else { return false }
                return !"\(error)".contains("\n")
            }
        }
        for spec in ["sharpen(0)", "sharpen(1,0)", "pixelate(0)", "pad(-1)", "trim(256)", "flip(x)", "background(red)"] {
            #expect(throws: ImageProcessingError.self, "\(spec)") { try ImageProcessorSpec.processor(from: spec) }
        }
    }

    @Test func cssShorthandForPadding() throws {
        let image = Self.image(10, 10)
        func size(_ spec: String) throws -> [Int] {
            let padded = try Self.run(spec, on: image)
            return [padded.pixelWidth, padded.pixelHeight]
        }
        #expect(try size("pad(1)") == [12, 12])
        #expect(try size("pad(1,2)") == [14, 12])
        #expect(try size("pad(1,2,3)") == [14, 14])
        #expect(try size("pad(1,2,3,4)") == [16, 14])
        #expect(try size("pad(1,#FF0000)") == [12, 12])
        let red = try Self.run("pad(1,#FF0000)", on: image)
        #expect(Array(red.pixels[0..<4]) == [255, 0, 0, 255])
    }

    @Test func builderSettersAppendTheProcessors() {
        let builder = KF.url(URL(string: "http://127.0.0.1/a.png")!)
            .rotating(degrees: 90).flipping(.vertical).extending(to: CGSize(width: 10, height: 10))
            .padding(top: 1, right: 2, bottom: 3, left: 4).trimming().sharpening(sigma: 1).pixelating(blockSize: 4)
            .background(color: .white).resizing(referenceSize: CGSize(width: 0, height: 50), upscale: false)
        #expect(
            builder.options.processor.identifier.components(separatedBy: "|>").dropFirst().map { $0.prefix(while: { $0 != "(" }) } == [
                "com.onevcat.Kingfisher.RotatingImageProcessor", "com.onevcat.Kingfisher.FlippingImageProcessor",
                "com.onevcat.Kingfisher.ExtendingImageProcessor", "com.onevcat.Kingfisher.PaddingImageProcessor",
                "com.onevcat.Kingfisher.TrimmingImageProcessor", "com.onevcat.Kingfisher.SharpeningImageProcessor",
                "com.onevcat.Kingfisher.PixelatingImageProcessor", "com.onevcat.Kingfisher.BackgroundImageProcessor",
                "com.onevcat.Kingfisher.ResizingImageProcessor",
            ])
    }
}
