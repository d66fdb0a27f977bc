// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Progressive JPEG previews: the scan tracker on real encoder output, and a large progressive
/// JPEG served slowly through the real server, its scans shown as they arrive.
@Suite(.timeLimit(.minutes(10))) struct ProgressiveJPEGTests {
    /// A 4000x3000 photo (the fixture photo tiled), encoded progressively at quality 0.9.
    static let large: Data = {
        let tile = try! KingfisherImage.decode(data: Fixtures.data("photo_baseline_420.jpg"))
        let (width, height) = (4000, 3000)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            let row = tile.pixels[(y % tile.pixelHeight) * tile.pixelWidth * 4..<(y % tile.pixelHeight + 1) * tile.pixelWidth * 4]
            var written = 0
            while written < width {
                let count = min(tile.pixelWidth, width - written)
                pixels.append(contentsOf: row.prefix(count * 4))
                written += count
            }
        }
        return try! JPEGCodec.encode(
            KingfisherImage(width: width, height: height, pixels: pixels, hasAlpha: false),
            quality: 0.9, progressive: true)
    }()

    /// Where each scan starts, read from all of `data` at once.
    func scanStarts(_ data: Data) -> JPEGScanTracker {
        var tracker = JPEGScanTracker()
        tracker.advance(over: data)
        return tracker
    }

    @Test func theTrackerFindsEachScanWhateverTheChunks() throws {
        let photo = try KingfisherImage.decode(data: Fixtures.data("photo_baseline_420.jpg"))
        let progressive = try JPEGCodec.encode(photo, quality: 0.8, progressive: true)
        let whole = scanStarts(progressive)
        #expect(whole.isProgressive == true && whole.width == 190 && whole.height == 127)
        #expect(whole.scanStarts.count >= 6, "libjpeg's progressive script has about ten scans")
        var chunked = JPEGScanTracker()
        var received = Data()
        for start in stride(from: 0, to: progressive.count, by: 7) {
            received.append(progressive[start..<min(start + 7, progressive.count)])
            chunked.advance(over: received)
        }
        #expect(chunked.scanStarts == whole.scanStarts)
        for start in whole.scanStarts { #expect(progressive[start] == 0xFF && progressive[start + 1] == 0xDA) }

        let baseline = scanStarts(try JPEGCodec.encode(photo, quality: 0.8))
        #expect(baseline.isProgressive == false && baseline.scanStarts.count == 1)

        // An APP1 segment holding FF DA (as an EXIF thumbnail does) is skipped by its length.
        var withThumbnail = Data(progressive.prefix(2))
        withThumbnail.append(contentsOf: [0xFF, 0xE1, 0x00, 0x08, 0xFF, 0xDA, 0x00, 0x04, 0xFF, 0xDA])
        withThumbnail.append(progressive.dropFirst(2))
        #expect(scanStarts(withThumbnail).scanStarts == whole.scanStarts.map { $0 + 10 })
        #expect(scanStarts(Data("<html>".utf8)).gaveUp)
    }

    /// Records what a target was shown.
    @MainActor final class ShownImages: KingfisherImageSettable {
        var shown: [KFCrossPlatformImage?] = []
        func setImage(_ image: KFCrossPlatformImage?, options: KingfisherParsedOptionsInfo) { shown.append(image) }
        func getImage() -> KFCrossPlatformImage? { shown.last ?? nil }
    }

    @Test func aSlowProgressiveJPEGShowsItsScansBeforeTheFinalImage() async throws {
        let data = Self.large
        try await withManagerSetup(name: "progressive") { setup in
            setup.server.serve(data, as: "large_progressive.jpg")
            // About 5 MB in 64 KB chunks, 150 ms apart: twelve seconds for the scans to arrive,
            // room for several previews' decoding even while the rest of the suite loads both
            // cores; 600 ms under a sanitizer, which slows the decoding as much (48 s, inside
            // the downloader's 120 s limit on a download).
            let interval = SanitizerAllowance.isActive ? 600 : 150
            let url = setup.server.url("/slow/large_progressive.jpg?chunk=65536&interval=\(interval)")
            let progressive = ImageProgressive()
            let updates = Locked<[CGSize]>([])
            let finished = Locked(false)
            progressive.onImageUpdated.delegate(on: setup.cache) { _, image in
                #expect(!finished.withLock { $0 }, "no preview after the final image")
                updates.withLock { $0.append(image.size) }
                return .default
            }
            let target = await MainActor.run { ShownImages() }
            let result: RetrieveImageResult = try await withCheckedThrowingContinuation { continuation in
                Task { @MainActor in
                    target.kf.setImage(
                        with: url,
                        options: [
                            .targetCache(setup.cache), .downloader(setup.manager.downloader),
                            .progressiveJPEG(progressive),
                        ]
                    ) { result in
                        finished.withLock { $0 = true }
                        continuation.resume(with: result)
                    }
                }
            }
            let sizes = updates.withLock { $0 }
            #expect(sizes.count >= 3, "\(sizes.count) previews before the final image")
            #expect(sizes.allSatisfy { $0 == CGSize(width: 4000, height: 3000) }, "previews keep the final point size: \(sizes)")
            #expect(result.image.pixelWidth == 4000)
            // The empty placeholder first, then each preview, then the image.
            let shown = await target.shown.map { $0?.pixelWidth }
            #expect(shown.first == .some(nil) && shown.count == sizes.count + 2 && shown.last == 4000, "\(shown)")
            #expect(shown.dropFirst().dropLast().allSatisfy { $0 == 1000 }, "previews are a quarter of the resolution: \(shown)")
        }
    }
}
