// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Every decodable fixture against its reference pixels and manifest facts.
@Suite(.timeLimit(.minutes(10))) struct FixtureDecodingTests {
    @Test(arguments: Fixtures.entries(purpose: "decode"))
    func decodesToReferencePixels(_ entry: Fixtures.Entry) throws {
        let image = try KingfisherImage.decode(data: Fixtures.data(entry.file))
        if let width = entry.width, let height = entry.height {
            #expect(image.pixelWidth == width && image.pixelHeight == height, "size of \(entry.file)")
        }
        let refs = entry.refs ?? []
        #expect(image.frames.count == max(entry.frames ?? 1, 1))
        #expect(refs.count == image.frames.count)
        for (index, refFile) in refs.enumerated() where index < image.frames.count {
            let reference = try Fixtures.reference(refFile)
            #expect(reference.pixelWidth == image.pixelWidth && reference.pixelHeight == image.pixelHeight)
            let pixels = image.frames[index].pixels
            if entry.format == "jpeg" {
                let quality = psnr(pixels, reference.pixels)
                #expect(quality >= 40, "\(entry.file) PSNR \(quality) dB against Pillow")
            } else if entry.refKind == "exact" {
                let difference = maxDifference(pixels, reference.pixels)
                #expect(difference == 0, "frame \(index) of \(entry.file): max difference \(difference)")
            } else {
                // Lossy WebP and quantised GIF decoded by Pillow through the same libraries.
                #expect(maxDifference(pixels, reference.pixels) <= 2, "\(entry.file) frame \(index)")
            }
        }
        if let durations = entry.durations, !durations.isEmpty {
            let ours = image.frames.map(\.duration)
            #expect(ours.count == durations.count)
            for (a, b) in zip(ours, durations) { #expect(abs(a - b) < 0.0005, "durations \(ours) vs \(durations)") }
        }
        if let loopCount = entry.loopCount, image.frames.count > 1 {
            #expect(image.loopCount == loopCount)
        }
        if entry.hasAlpha == true { #expect(image.hasAlpha) }
        if image.hasAlpha == false { #expect(image.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }) }
        #expect(image.exifOrientation == (entry.orientation ?? 1))
        #expect(image.originalData == (try Fixtures.data(entry.file)))
        // An animation holds its file and the frames decoded so far (the first, and the window).
        let frameBytes = image.pixelWidth * image.pixelHeight * 4
        if image.isAnimated {
            #expect(image.cost >= frameBytes + image.originalData!.count)
            #expect(image.cost <= frameBytes * (1 + FramesDecodedOnDemand.preferredWindowCount) + image.originalData!.count)
        } else {
            #expect(image.cost == frameBytes)
        }
    }

    @Test(arguments: Fixtures.entries(purpose: "decode").filter { ($0.frames ?? 1) > 1 })
    func onlyFirstFrameLoadsOneFrame(_ entry: Fixtures.Entry) throws {
        let image = try KingfisherImage.decode(data: Fixtures.data(entry.file), options: ImageCreatingOptions(onlyFirstFrame: true))
        #expect(image.frames.count == 1)
        let reference = try Fixtures.reference(entry.refs![0])
        if entry.refKind == "exact" && entry.format != "jpeg" { #expect(maxDifference(image.pixels, reference.pixels) == 0) }
    }

    /// The refusal names the recognised format: files without refs (sample.heic, sample.avif: an
    /// `ftyp` box and nothing else) are damaged data of that format; the others are refused as
    /// unsupported until their format has a decoder.
    @Test(arguments: Fixtures.entries(purpose: "recognise"))
    func recognisedFormatsAreRefusedByName(_ entry: Fixtures.Entry) throws {
        let data = try Fixtures.data(entry.file)
        let format = data.kf.imageFileFormat
        #expect(format.rawValue.lowercased() == entry.format.lowercased())
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        guard entry.refs?.isEmpty ?? true else {
            #expect(reason == .unsupportedFormat(format))
            return
        }
        switch reason {
        case .corruptedData(format, _)?, .truncatedData(format)?: break
        default: Issue.record("\(entry.file): \(String(describing: reason))")
        }
    }
}
