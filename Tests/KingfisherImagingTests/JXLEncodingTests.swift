// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// JPEG XL output: libjxl's own decoder (`djxl`) reads it back to what was written, lossy near,
/// lossless exactly, alpha kept.
@Suite struct JXLEncodingTests {
    /// `data` decoded by djxl to a PNG, and that PNG's pixels.
    private static func djxl(_ data: Data) async throws -> KingfisherImage {
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("in.jxl")
            let output = directory.appendingPathComponent("out.png")
            try data.write(to: input)
            let run = try await ProcessRun.run("/usr/bin/djxl", [input.path, output.path])
            #expect(run.status == 0, "djxl: \(run.stderr)")
            return try KingfisherImage.decode(data: Data(contentsOf: output))
        }
    }

    @Test func djxlReadsWhatIsWritten() async throws {
        let photo = try KingfisherImage.decode(data: EditingFixtures.folder.data("photo.png"))
        let lossy = try photo.encoded(as: .JXL, options: ImageEncodingOptions(compressionQuality: 0.9))
        #expect(lossy.starts(with: [0xFF, 0x0A]))
        let read = try await Self.djxl(lossy)
        #expect(read.pixelWidth == 63 && read.pixelHeight == 43)
        #expect(psnr(read.pixels, photo.pixels) >= 30, "\(psnr(read.pixels, photo.pixels)) dB")
        let lower = try photo.encoded(as: .JXL, options: ImageEncodingOptions(compressionQuality: 0.4))
        #expect(lower.count < lossy.count)

        let lossless = try photo.encoded(as: .JXL, options: ImageEncodingOptions(lossless: true))
        #expect(try await Self.djxl(lossless).pixels == photo.pixels)
        // Our own decoder agrees.
        #expect(try KingfisherImage.decode(data: lossless).pixels == photo.pixels)
    }

    @Test func alphaIsKept() async throws {
        let translucent = try KingfisherImage.decode(data: EditingFixtures.folder.data("translucent.png"))
        let data = try translucent.encoded(as: .JXL, options: ImageEncodingOptions(lossless: true))
        let read = try await Self.djxl(data)
        #expect(maxVisibleDifference(read.pixels, translucent.pixels) == 0)
    }

    @Test func theQualityMapsToCjxlsDistance() {
        #expect(JXLEncoder.distance(quality: 0.9) == 1.0)
        #expect(abs(JXLEncoder.distance(quality: 1.0) - 0.1) < 1e-6)
        #expect(JXLEncoder.distance(quality: 0.3) > JXLEncoder.distance(quality: 0.5))
    }
}
