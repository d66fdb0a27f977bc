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
        } else {
            #expect(maxDifference(image.pixels, reference.pixels) == 0, "\(entry.file): pixels differ")
        }
    }
}
