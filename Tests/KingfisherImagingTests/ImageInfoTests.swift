// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// What `/info` says of a file: its headers, EXIF summary, dominant colour and a BlurHash that
/// the reference implementation (PyPI `blurhash`) writes alike and decodes.
@Suite struct ImageInfoTests {
    @Test func headersAndEXIF() throws {
        let info = try ImageInfo(data: EditingFixtures.folder.data("exif.jpg"))
        // Stored 63x43, taken sideways: upright it is 43x63.
        #expect(info.format == "jpg" && info.width == 43 && info.height == 63 && info.frames == 1 && !info.alpha)
        #expect(info.orientation == 6 && info.durations.isEmpty && info.colorProfile == "sRGB")
        let exif = try #require(info.exif)
        #expect(exif.make == "Canon" && exif.model == "Canon EOS R5" && exif.dateTaken == "2026:05:17 14:03:22")
        #expect(exif.exposureTime == 0.004 && exif.fNumber == 2.8 && exif.iso == 400 && exif.focalLength == 50)
        #expect(exif.artist == "Ada Lovelace" && exif.copyright == "(c) 2026 Ada Lovelace")
        #expect(exif.latitude == nil && exif.longitude == nil, "the position only when asked for")
        let located = try #require(try ImageInfo(data: EditingFixtures.folder.data("exif.jpg"), includingGPS: true).exif)
        #expect(abs(located.latitude! - (48 + 51.0 / 60 + 24.0 / 3600)) < 1e-9 && abs(located.longitude! + (2 + 21.0 / 60)) < 1e-9)
        // A file without EXIF has none; an animation its frames.
        #expect(try ImageInfo(data: EditingFixtures.folder.data("photo.png")).exif == nil)
        let gif = try ImageInfo(data: Fixtures.data("gif_disposal_none.gif"))
        #expect(gif.frames == 3 && gif.durations.count == 3 && gif.format == "gif")
    }

    @Test func dominantColourIsTheLargestGroup() throws {
        // Three quarters teal, a quarter red.
        var pixels: [UInt8] = []
        for index in 0..<64 { pixels += index % 4 == 0 ? [220, 20, 30, 255] : [0, 128, 128, 255] }
        let image = KingfisherImage(width: 8, height: 8, pixels: pixels)
        let info = try ImageInfo(data: image.encoded(as: .PNG))
        #expect(info.dominantColor == "#008080")
    }

    @Test func theBlurHashIsTheReferenceImplementationsAndDecodes() async throws {
        let data = try EditingFixtures.folder.data("photo.png")
        let info = try ImageInfo(data: data)
        let sample = try ImageDecoder.decode(data, options: ImageCreatingOptions(), target: .longestSide(ImageInfo.sampleSize))
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sample.png")
            try sample.encoded(as: .PNG).write(to: path)
            let script = """
                import sys, blurhash, numpy
                from PIL import Image
                pixels = numpy.array(Image.open(sys.argv[1]).convert("RGB")).astype(float)
                print(blurhash.encode(pixels, 4, 3))
                decoded = numpy.array(blurhash.decode(sys.argv[2], 16, 16), dtype=float)
                print(" ".join(str(round(v)) for v in decoded.reshape(-1, 3).mean(axis=0)))
                # The placeholder's mean is the image's mean in linear light (its DC component).
                v = pixels / 255
                mean = numpy.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4).reshape(-1, 3).mean(axis=0)
                mean = numpy.where(mean <= 0.0031308, mean * 12.92, 1.055 * mean ** (1 / 2.4) - 0.055) * 255
                print(" ".join(str(round(v)) for v in mean))
                """
            let run = try await ProcessRun.run("/usr/bin/env", ["python3", "-c", script, path.path, info.blurHash])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == info.blurHash, "the reference writes \(lines.first ?? "") of the same pixels, we \(info.blurHash)")
            // The decoded placeholder is the image's colours: its mean near the image's (in linear
            // light; the cosine terms do not average out exactly over 16 samples).
            let averages = lines.dropFirst().map { $0.split(separator: " ").compactMap { Double($0) } }
            #expect(averages.count == 2 && zip(averages[0], averages[1]).allSatisfy { abs($0 - $1) <= 16 }, "\(averages)")
        }
    }
}
