// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Malformed files that browsers still show decode to what a browser shows (Fixtures/lenient).
@Suite struct LenientDecodingTests {
    @Test(arguments: LenientFixtures.all)
    func decodesAsBrowsersShowIt(_ entry: LenientFixtures.Entry) throws {
        let data = try LenientFixtures.folder.data(entry.file)
        let image: KingfisherImage
        do {
            image = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(preserveColorProfile: true))
        } catch {
            Issue.record("\(entry.file) (\(entry.note)): \(error)")
            return
        }
        let reference = try KingfisherImage.decode(data: LenientFixtures.folder.data(entry.ref))
        #expect(image.pixelWidth == entry.width && image.pixelHeight == entry.height)
        #expect(image.frameCount == entry.frames, "\(entry.file): \(image.frameCount) frames")
        guard image.pixelWidth == reference.pixelWidth, image.pixelHeight == reference.pixelHeight else { return }
        if let minPSNR = entry.minPSNR {
            let quality = psnr(image.pixels, reference.pixels)
            #expect(quality >= minPSNR, "\(entry.file): \(quality) dB")
            print("\(entry.file): \(String(format: "%.1f", quality)) dB against the reference")
        } else {
            #expect(maxDifference(image.pixels, reference.pixels) == 0, "\(entry.file): pixels differ")
        }
    }
}

/// Malformed files no decoder here shows are refused with what is wrong with them.
@Suite struct MalformedFileReasonTests {
    /// giflib stops at an LZW minimum code size over 8 (browsers take up to 11): the error says
    /// so rather than calling the file truncated.
    @Test func aGIFWhoseLZWCodeSizeIsOver8SaysSo() throws {
        let data = try LenientFixtures.folder.data("gif_lzw_code_size_11.gif")
        let reason = codingErrorReason { _ = try KingfisherImage.decode(data: data) }
        #expect(
            reason == .corruptedData(format: .GIF, detail: "frame 0's LZW minimum code size is 11, over the 8 that GIF allows"))
    }
}
