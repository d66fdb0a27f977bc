// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Crops by gravity: the fixed places, a focal point, and the smart ones, which keep the subject
/// of a photo placed off centre (Fixtures/saliency) and cut where `vipsthumbnail --smartcrop
/// attention` cuts, within 10% of the crop's width.
@Suite struct SmartCropTests {
    /// Where `part` (a crop of `whole` along one axis) starts in it: the offset with the least
    /// difference, exact for our own crops and within resampling noise for libvips'.
    private static func offset(of part: KingfisherImage, in whole: KingfisherImage) -> Int {
        let horizontal = whole.pixelWidth > part.pixelWidth
        let range = 0...(horizontal ? whole.pixelWidth - part.pixelWidth : whole.pixelHeight - part.pixelHeight)
        func difference(at offset: Int) -> Int {
            var total = 0
            for y in stride(from: 0, to: part.pixelHeight, by: 2) {
                for x in stride(from: 0, to: part.pixelWidth, by: 2) {
                    let (wx, wy) = horizontal ? (x + offset, y) : (x, y + offset)
                    let p = (y * part.pixelWidth + x) * 4
                    let w = (wy * whole.pixelWidth + wx) * 4
                    for c in 0..<3 { total += abs(Int(part.pixels[p + c]) - Int(whole.pixels[w + c])) }
                }
            }
            return total
        }
        return range.min { difference(at: $0) < difference(at: $1) } ?? 0
    }

    @Test(arguments: SaliencyFixtures.all)
    func aSmartFillKeepsTheSubjectAndCutsWhereLibvipsCuts(_ entry: SaliencyFixtures.Entry) async throws {
        let data = try SaliencyFixtures.folder.data(entry.file)
        let context = ImageProcessingContext()
        let filled = try ImageProcessorSpec.processor(from: entry.spec).process(.data(data), in: context)
        let size = "\(filled.pixelWidth)x\(filled.pixelHeight)"
        let covering = try ImageProcessorSpec.processor(from: "resize(\(size),fill)").process(.data(data), in: context)
        let horizontal = covering.pixelWidth > filled.pixelWidth
        let ours = Self.offset(of: filled, in: covering)

        // The subject, in the covering image's pixels along the axis the crop cuts.
        let source = try KingfisherImage.decode(data: data)
        let factor = Double(covering.pixelWidth) / Double(source.pixelWidth)
        let (start, length) = horizontal ? (entry.subject[0], entry.subject[2]) : (entry.subject[1], entry.subject[3])
        let subject = (Double(start) * factor)..<(Double(start + length) * factor)
        let window = Double(ours)..<Double(ours + (horizontal ? filled.pixelWidth : filled.pixelHeight))
        let kept =
            (min(subject.upperBound, window.upperBound) - max(subject.lowerBound, window.lowerBound))
            / (subject.upperBound - subject.lowerBound)
        #expect(kept >= 0.95, "\(entry.file): \(Int(kept * 100))% of the subject kept, window \(window)")

        let theirs = try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent(entry.file)
            try data.write(to: input)
            let output = directory.appendingPathComponent("out.png")
            let run = try await ProcessRun.run(
                "/usr/bin/vipsthumbnail", [input.path, "--size", size, "--smartcrop", "attention", "-o", output.path])
            #expect(run.status == 0, "vipsthumbnail: \(run.stderr)")
            return Self.offset(of: try KingfisherImage.decode(data: Data(contentsOf: output)), in: covering)
        }
        let tolerance = Double(filled.pixelWidth) / 10
        #expect(Double(abs(ours - theirs)) <= tolerance, "\(entry.file): we cut at \(ours), libvips at \(theirs)")
        print("\(entry.file): cut at \(ours), vipsthumbnail at \(theirs) (\(abs(ours - theirs)) px of \(filled.pixelWidth))")
    }

    @Test func fixedGravitiesAndAFocalPointCutWhereTheySay() throws {
        // 100 x 50, each pixel's red its column and green its row.
        var pixels = [UInt8](repeating: 255, count: 100 * 50 * 4)
        for y in 0..<50 { for x in 0..<100 { (pixels[(y * 100 + x) * 4], pixels[(y * 100 + x) * 4 + 1]) = (UInt8(x), UInt8(y)) } }
        let image = KingfisherImage(width: 100, height: 50, pixels: pixels)
        func corner(_ spec: String) throws -> [UInt8] {
            let cropped = try ImageProcessorSpec.processor(from: spec).process(.image(image), in: ImageProcessingContext())
            return [cropped.pixels[0], cropped.pixels[1], UInt8(cropped.pixelWidth), UInt8(cropped.pixelHeight)]
        }
        #expect(try corner("crop(20x10,center)") == [40, 20, 20, 10])
        #expect(try corner("crop(20x10,nw)") == [0, 0, 20, 10])
        #expect(try corner("crop(20x10,se)") == [80, 40, 20, 10])
        #expect(try corner("crop(20x10,north)") == [40, 0, 20, 10])
        #expect(try corner("crop(20x10,west)") == [0, 20, 20, 10])
        #expect(try corner("crop(20x10,focus:0.1:0.9)") == [0, 40, 20, 10])
        #expect(try corner("crop(20x10,focus:0.5:0.3)") == [40, 10, 20, 10])
        // fill: 100x50 covering 40x40 is 80x40, cut to 40x40 at the east edge.
        let east = try corner("fill(40x40,east)")
        #expect((49...51).contains(east[0]) && east[2...] == [40, 40], "\(east)")
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "fill(40x40,focus:2:0)") }
        #expect(throws: ImageProcessingError.self) { try ImageProcessorSpec.processor(from: "crop(40x40,middle)") }
    }

    @Test func identifiersNameTheGravity() {
        let size = CGSize(width: 30, height: 20)
        #expect(CroppingImageProcessor(size: size, gravity: .center).identifier == CroppingImageProcessor(size: size).identifier)
        #expect(CroppingImageProcessor(size: size, gravity: .attention).identifier.hasSuffix("_attention)"))
        #expect(CroppingImageProcessor(size: size, gravity: .entropy).identifier.hasSuffix("_entropy)"))
        #expect(
            CroppingImageProcessor(size: size, gravity: .focus(CGPoint(x: 0.25, y: 1))).identifier
                == "com.onevcat.Kingfisher.CroppingImageProcessor((30.0, 20.0)_focus(0.25, 1.0))")
    }

    @Test func anEntropyCropKeepsTheDetailedSide() throws {
        // Left half flat grey, right half noise: a 50-wide crop of 100 keeps the noise.
        var random = SeededGenerator(state: 7)
        var pixels = [UInt8](repeating: 128, count: 100 * 40 * 4)
        for y in 0..<40 {
            for x in 50..<100 { for c in 0..<3 { pixels[(y * 100 + x) * 4 + c] = UInt8.random(in: 0...255, using: &random) } }
        }
        for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
        let image = KingfisherImage(width: 100, height: 40, pixels: pixels)
        let cropped = try ImageProcessorSpec.processor(from: "crop(50x40,entropy)").process(.image(image), in: ImageProcessingContext())
        #expect(cropped.pixels == image.kf.crop(to: CGSize(width: 50, height: 40), anchorOn: CGPoint(x: 1, y: 0)).pixels)
    }
}
