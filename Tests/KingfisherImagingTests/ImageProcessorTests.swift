// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Identifiers, composition and the processors' contracts.
@Suite(.timeLimit(.minutes(10))) struct ImageProcessorTests {
    let options = KingfisherParsedOptionsInfo(nil)

    @Test func identifiersFollowKingfisher() {
        let red = KingfisherColor(red: 1, green: 0, blue: 0)
        let cases: [(any ImageProcessor, String)] = [
            (DefaultImageProcessor.default, ""),
            (
                ResizingImageProcessor(referenceSize: CGSize(width: 100, height: 50)),
                "com.onevcat.Kingfisher.ResizingImageProcessor((100.0, 50.0))"
            ),
            (
                ResizingImageProcessor(referenceSize: CGSize(width: 100, height: 50), mode: .aspectFit),
                "com.onevcat.Kingfisher.ResizingImageProcessor((100.0, 50.0), aspectFit)"
            ),
            (
                DownsamplingImageProcessor(size: CGSize(width: 40, height: 40)),
                "com.onevcat.Kingfisher.DownsamplingImageProcessor((40.0, 40.0))"
            ),
            (
                CroppingImageProcessor(size: CGSize(width: 10, height: 20)),
                "com.onevcat.Kingfisher.CroppingImageProcessor((10.0, 20.0)_(0.5, 0.5))"
            ),
            (
                RoundCornerImageProcessor(cornerRadius: 20),
                "com.onevcat.Kingfisher.RoundCornerImageProcessor(20.0)"
            ),
            (
                RoundCornerImageProcessor(
                    radius: .widthFraction(0.5), targetSize: CGSize(width: 30, height: 30),
                    roundingCorners: [.topLeft, .bottomRight], backgroundColor: red),
                "com.onevcat.Kingfisher.RoundCornerImageProcessor(w_frac_0.5_(30.0, 30.0)_corner(9))_(1.00,0.00,0.00,1.00)"
            ),
            (
                RoundCornerImageProcessor(radius: .heightFraction(0.25)),
                "com.onevcat.Kingfisher.RoundCornerImageProcessor(h_frac_0.25)"
            ),
            (
                BorderImageProcessor(border: Border()),
                "com.onevcat.Kingfisher.BorderImageProcessor((0.00,0.00,0.00,1.00)_4.0_0.0_"
            ),
            (BlurImageProcessor(blurRadius: 10), "com.onevcat.Kingfisher.BlurImageProcessor(10.0)"),
            (OverlayImageProcessor(overlay: red), "com.onevcat.Kingfisher.OverlayImageProcessor((1.00,0.00,0.00,1.00)_0.5)"),
            (TintImageProcessor(tint: red), "com.onevcat.Kingfisher.TintImageProcessor((1.00,0.00,0.00,1.00))"),
            (
                ColorControlsProcessor(brightness: 0.1, contrast: 1.2, saturation: 0.5, inputEV: 0.7),
                "com.onevcat.Kingfisher.ColorControlsProcessor(0.1_1.2_0.5_0.7)"
            ),
            (BlackWhiteProcessor(), "com.onevcat.Kingfisher.BlackWhiteProcessor"),
            (BlendImageProcessor(blendMode: .multiply), "com.onevcat.Kingfisher.BlendImageProcessor(1,1.0)"),
            (
                BlendImageProcessor(blendMode: .sourceAtop, alpha: 0.5, backgroundColor: .white),
                "com.onevcat.Kingfisher.BlendImageProcessor(20,0.5)_(1.00,1.00,1.00,1.00)"
            ),
        ]
        for (processor, identifier) in cases {
            #expect(processor.identifier == identifier)
        }
    }

    let crop = CroppingImageProcessor(size: CGSize(width: 10, height: 10), anchor: .zero)
    let resize = ResizingImageProcessor(referenceSize: CGSize(width: 20, height: 20))

    @Test func compositionRunsInOrder() throws {
        let image = makeTestImage(width: 40, height: 20)
        let a = try #require((crop |> resize).process(item: .image(image), options: options))
        let b = try #require((resize |> crop).process(item: .image(image), options: options))
        #expect(a.pixelWidth == 20 && a.pixelHeight == 20)
        #expect(b.pixelWidth == 10 && b.pixelHeight == 10)
    }

    @Test func compositionJoinsIdentifiers() {
        let cropThenResize = crop |> resize
        #expect(cropThenResize.identifier == crop.identifier + "|>" + resize.identifier)
        #expect(crop.append(another: resize).identifier == cropThenResize.identifier)
        #expect(cropThenResize == (crop |> resize))
        #expect(cropThenResize != (resize |> crop))
    }

    @Test func dataItemsAreDecodedFirst() throws {
        let data = try Fixtures.data("photo.png")
        let image = try #require(BlurImageProcessor(blurRadius: 2).process(item: .data(data), options: options))
        #expect(image.pixelWidth == 190)
        #expect(DefaultImageProcessor.default.process(item: .data(Data("<html>".utf8)), options: options) == nil)
        #expect(throws: KingfisherError.self) {
            try BlurImageProcessor(blurRadius: 2).processedImage(from: Data("<html>".utf8), options: options)
        }
    }

    /// A 200x100 image resized to 50x50 points in each content mode: the size it gets.
    static let contentModes: [(ContentMode, CGSize)] = [
        (.none, CGSize(width: 50, height: 50)), (.aspectFit, CGSize(width: 50, height: 25)),
        (.aspectFill, CGSize(width: 100, height: 50)),
    ]

    @Test func resizingHonoursTheContentMode() throws {
        let image = makeTestImage(width: 200, height: 100)
        for (mode, points) in Self.contentModes {
            let result = try #require(
                ResizingImageProcessor(referenceSize: CGSize(width: 50, height: 50), mode: mode)
                    .process(item: .image(image), options: options))
            #expect(result.size == points, "\(mode)")
            #expect(result.pixelWidth == Int(points.width) && result.pixelHeight == Int(points.height))
        }
    }

    @Test(arguments: [CGFloat(1), 2, 3])
    func resizingHonoursTheScaleFactor(_ scale: CGFloat) throws {
        let image = makeTestImage(width: 200, height: 100)
        let options = KingfisherParsedOptionsInfo([.scaleFactor(scale)])
        for (mode, points) in Self.contentModes {
            let result = try #require(
                ResizingImageProcessor(referenceSize: CGSize(width: 50, height: 50), mode: mode)
                    .process(item: .image(image), options: options))
            #expect(result.size == points, "\(mode) at scale \(scale)")
            #expect(result.scale == scale)
            #expect(result.pixelWidth == Int(points.width * scale) && result.pixelHeight == Int(points.height * scale))
        }
    }

    @Test func resizingRefusesOutputsOverThePixelLimit() {
        let image = makeTestImage(width: 4, height: 4)
        let huge = ResizingImageProcessor(referenceSize: CGSize(width: 1_000_000, height: 1_000_000))
        #expect(huge.process(item: .image(image), options: options) == nil)
    }

    @Test func croppingFollowsTheAnchor() throws {
        var pixels = [UInt8]()
        for y in 0..<10 { for x in 0..<10 { pixels += [UInt8(x * 20), UInt8(y * 20), 0, 255] } }
        let image = KingfisherImage(width: 10, height: 10, pixels: pixels, hasAlpha: false)
        let size = CGSize(width: 4, height: 4)
        let anchors: [(CGPoint, (Int, Int))] = [
            (.zero, (0, 0)), (CGPoint(x: 0.5, y: 0.5), (3, 3)),
            (CGPoint(x: 1, y: 1), (6, 6)), (CGPoint(x: 2, y: -1), (6, 0)),
        ]
        for (anchor, origin) in anchors {
            let cropped = image.kf.crop(to: size, anchorOn: anchor)
            #expect(cropped.pixelWidth == 4 && cropped.pixelHeight == 4)
            #expect(cropped.pixels[0] == UInt8(origin.0 * 20) && cropped.pixels[1] == UInt8(origin.1 * 20), "\(anchor)")
        }
        #expect(
            CGSize(width: 100, height: 100).kf.constrainedRect(
                for: CGSize(width: 20, height: 20),
                anchor: CGPoint(x: 0.5, y: 0.5))
                == CGRect(x: 40, y: 40, width: 20, height: 20))
    }

    @Test func roundedCornersCutAntiAliasedTransparentArcs() throws {
        let image = makeTestImage(width: 100, height: 100)
        let rounded = try #require(RoundCornerImageProcessor(cornerRadius: 30).process(item: .image(image), options: options))
        func alpha(_ x: Int, _ y: Int) -> UInt8 { rounded.pixels[(y * 100 + x) * 4 + 3] }
        #expect(alpha(0, 0) == 0 && alpha(99, 0) == 0 && alpha(0, 99) == 0 && alpha(99, 99) == 0)
        #expect(alpha(50, 50) == 255 && alpha(30, 30) == 255 && alpha(50, 0) == 255, "opaque inside")
        // The edge is anti-aliased: some pixels along the arc are partly covered.
        let partial = (0..<30).filter { alpha($0, 8) > 0 && alpha($0, 8) < 255 }
        #expect(!partial.isEmpty)
        #expect(rounded.hasAlpha)
    }

    @Test func onlyTheChosenCornersAreRounded() throws {
        let image = makeTestImage(width: 100, height: 100)
        let some = try #require(
            RoundCornerImageProcessor(cornerRadius: 30, roundingCorners: [.topLeft])
                .process(item: .image(image), options: options))
        #expect(some.pixels[3] == 0 && some.pixels[(99 * 100 + 99) * 4 + 3] == 255)
    }

    @Test func aBackgroundColourFillsTheCutCorners() throws {
        let image = makeTestImage(width: 100, height: 100)
        let backed = try #require(
            RoundCornerImageProcessor(cornerRadius: 30, backgroundColor: .red)
                .process(item: .image(image), options: options))
        #expect(Array(backed.pixels[0..<4]) == [255, 0, 0, 255])
    }

    @Test func roundCornerTargetSizeResizesFirst() throws {
        let image = makeTestImage(width: 100, height: 50)
        let result = try #require(
            RoundCornerImageProcessor(radius: .widthFraction(0.5), targetSize: CGSize(width: 40, height: 40))
                .process(item: .image(image), options: options))
        #expect(result.pixelWidth == 40 && result.pixelHeight == 40)
        #expect(result.pixels[(20 * 40 + 0) * 4 + 3] > 100, "a circle touches the middle of the left edge")
        #expect(result.pixels[3] == 0)
    }

    @Test func blurLeavesAFlatImageFlat() {
        let flat = KingfisherImage(
            width: 64, height: 48,
            pixels: [UInt8](repeating: 0, count: 64 * 48 * 4).enumerated()
                .map { [UInt8(200), 100, 50, 255][$0.offset % 4] }, hasAlpha: false)
        let blurred = flat.kf.blurred(withRadius: 10)
        #expect(maxDifference(blurred.pixels, flat.pixels) <= 1)
    }

    @Test func blurSmoothsAnEdgeMonotonically() {
        var edge = [UInt8]()
        for _ in 0..<32 { for x in 0..<64 { edge += x < 32 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        let soft = KingfisherImage(width: 64, height: 32, pixels: edge, hasAlpha: false).kf.blurred(withRadius: 4)
        let row = (0..<64).map { Int(soft.pixels[(16 * 64 + $0) * 4]) }
        #expect(row[0] == 0 && row[63] == 255)
        #expect(row[30] > 0 && row[30] < 128 && row[33] > 128 && row[33] < 255)
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "monotonic across the edge")
    }

    @Test func overlayFractionRunsFromColourToImage() throws {
        let image = makeTestImage(width: 8, height: 8)
        let solid = image.kf.overlaying(with: .blue, fraction: 0)
        #expect(Array(solid.pixels[0..<4]) == [0, 0, 255, 255])
        let unchanged = image.kf.overlaying(with: .blue, fraction: 1)
        #expect(maxDifference(unchanged.pixels, image.pixels) <= 1)
        let half = image.kf.overlaying(with: .blue, fraction: 0.5)
        #expect(abs(Int(half.pixels[2]) - (Int(image.pixels[2]) + 255) / 2) <= 1)
        // The overlay takes the image's shape: transparent stays transparent.
        let clear = KingfisherImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 16))
        #expect(clear.kf.overlaying(with: .blue, fraction: 0).pixels.allSatisfy { $0 == 0 })
    }

    @Test func tintCompositesTheColourOver() throws {
        let image = KingfisherImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255], hasAlpha: false)
        let tinted = image.kf.tinted(with: KingfisherColor(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(Array(tinted.pixels[0..<4]) == [128, 0, 0, 255])
        #expect(Array(tinted.pixels[4..<8]) == [255, 127, 127, 255])
    }

    @Test func colorControlsFollowCoreImage() throws {
        let image = makeTestImage(width: 16, height: 16)
        let identity = image.kf.adjusted(brightness: 0, contrast: 1, saturation: 1, inputEV: 0)
        #expect(maxDifference(identity.pixels, image.pixels) <= 1)
        let gray = image.kf.adjusted(brightness: 0, contrast: 1, saturation: 0, inputEV: 0)
        for i in Swift.stride(from: 0, to: gray.pixels.count, by: 4) {
            #expect(gray.pixels[i] == gray.pixels[i + 1] && gray.pixels[i + 1] == gray.pixels[i + 2])
        }
        let brighter = image.kf.adjusted(brightness: 0, contrast: 1, saturation: 1, inputEV: 1)
        #expect(brighter.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element >= image.pixels[$0.offset] })
        let blackWhite = try #require(BlackWhiteProcessor().process(item: .image(image), options: options))
        #expect(blackWhite.pixels[0] == blackWhite.pixels[1])
    }

    @Test func blendModesFollowTheCompositingSpecification() {
        let source = SIMD4<Float>(0.8, 0.4, 0.2, 1)
        let backdrop = SIMD4<Float>(0.5, 0.5, 0.5, 1)
        func blend(_ mode: CGBlendMode, _ s: SIMD4<Float> = source, _ b: SIMD4<Float> = backdrop, alpha: Float = 1) -> SIMD4<Float> {
            Compositing.composite(s, b, mode: mode, alpha: alpha)
        }
        func close(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool { ((a - b) * (a - b)).sum() < 1e-6 }
        #expect(close(blend(.normal), source))
        #expect(close(blend(.multiply), SIMD4(0.4, 0.2, 0.1, 1)))
        #expect(close(blend(.screen), SIMD4(0.9, 0.7, 0.6, 1)))
        #expect(close(blend(.darken), SIMD4(0.5, 0.4, 0.2, 1)))
        #expect(close(blend(.lighten), SIMD4(0.8, 0.5, 0.5, 1)))
        #expect(close(blend(.difference), SIMD4(0.3, 0.1, 0.3, 1)))
        #expect(close(blend(.exclusion), SIMD4(0.5, 0.5, 0.5, 1)))
        #expect(close(blend(.hardLight), SIMD4(0.8, 0.4, 0.2, 1)))
        // Overlay on mid-gray gives the source; on black, black.
        #expect(close(blend(.overlay), source))
        #expect(close(blend(.overlay, source, SIMD4(0, 0, 0, 1)), SIMD4(0, 0, 0, 1)))
        #expect(close(blend(.colorDodge, SIMD4(0.5, 0.5, 0.5, 1), SIMD4(0.25, 0, 1, 1)), SIMD4(0.5, 0, 1, 1)))
        #expect(close(blend(.colorBurn, SIMD4(0.5, 0.5, 0.5, 1), SIMD4(0.75, 1, 0, 1)), SIMD4(0.5, 1, 0, 1)))
        #expect(
            close(
                blend(.luminosity, source, SIMD4(0.5, 0.5, 0.5, 1)),
                {
                    let l: Float = 0.3 * 0.8 + 0.59 * 0.4 + 0.11 * 0.2
                    return SIMD4(l, l, l, 1)
                }()))
        #expect(close(blend(.normal, alpha: 0.5), SIMD4(0.65, 0.45, 0.35, 1)))
        // Porter-Duff with partial coverage.
        let half = SIMD4<Float>(1, 0, 0, 0.5)
        #expect(close(blend(.sourceIn, half, SIMD4(0, 0, 1, 0.5)), SIMD4(1, 0, 0, 0.25)))
        #expect(close(blend(.destinationOut, half, SIMD4(0, 0, 1, 1)), SIMD4(0, 0, 1, 0.5)))
        #expect(close(blend(.xor, SIMD4(1, 0, 0, 1), SIMD4(0, 0, 1, 1)), .zero))
        #expect(close(blend(.clear), .zero))
        #expect(close(blend(.copy, half, backdrop), half))
        #expect(close(blend(.plusLighter, SIMD4(0.6, 0.6, 0.6, 1), SIMD4(0.6, 0.2, 0, 1)), SIMD4(1, 0.8, 0.6, 1)))
        // A transparent backdrop leaves separable modes with the source alone.
        #expect(close(blend(.multiply, source, .zero), source))
    }

    @Test func blendProcessorUsesTheBackground() throws {
        let image = KingfisherImage(width: 1, height: 1, pixels: [128, 128, 128, 255], hasAlpha: false)
        let result = try #require(
            BlendImageProcessor(blendMode: .multiply, backgroundColor: .red)
                .process(item: .image(image), options: options))
        #expect(Array(result.pixels) == [128, 0, 0, 255])
    }

    @Test(arguments: ["gif_disposal_none.gif", "webp_animated.webp"])
    func processingAnAnimationProcessesEveryFrameKeepingItsTiming(_ file: String) throws {
        let source = try KingfisherImage.decode(data: Fixtures.data(file))
        let chain =
            ResizingImageProcessor(referenceSize: CGSize(width: 10, height: 8)) |> BlurImageProcessor(blurRadius: 1)
            |> RoundCornerImageProcessor(cornerRadius: 3)
        let result = try #require(chain.process(item: .data(Fixtures.data(file)), options: options))
        #expect(result.frames.count == source.frames.count)
        #expect(result.frames.map(\.duration) == source.frames.map(\.duration))
        #expect(result.loopCount == source.loopCount)
        #expect(result.pixelWidth == 10 && result.pixelHeight == 8)
        #expect(result.originalData == nil)
        let frames = Set(result.frames.map(\.pixels))
        #expect(frames.count > 1, "frames stay different")
    }

    @Test func resizingLeavesNoDarkFringeAtAlphaEdges() throws {
        var pixels = [UInt8]()
        for _ in 0..<64 { for x in 0..<64 { pixels += x < 32 ? [255, 255, 255, 255] : [0, 0, 0, 0] } }
        let image = KingfisherImage(width: 64, height: 64, pixels: pixels)
        let small = try #require(
            ResizingImageProcessor(referenceSize: CGSize(width: 13, height: 13))
                .process(item: .image(image), options: options))
        for i in Swift.stride(from: 0, to: small.pixels.count, by: 4) where small.pixels[i + 3] > 8 {
            #expect(small.pixels[i] >= 250, "dark fringe: \(Array(small.pixels[i..<i + 4]))")
        }
    }

    @Test func colorsParseFromHex() {
        #expect(KingfisherColor(hex: "#FF8000") == KingfisherColor(red: 1, green: 128 / 255, blue: 0))
        #expect(KingfisherColor(hex: "ff800080")?.alpha == CGFloat(128) / 255)
        #expect(KingfisherColor(hex: "#F80") == KingfisherColor(red: 1, green: 136 / 255, blue: 0))
        #expect(KingfisherColor(hex: "#12345") == nil)
        #expect(KingfisherColor(hex: "#GG0000") == nil)
        #expect(KingfisherColor.red.hexString == "#FF0000FF")
    }
}
