// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// Shrink-on-load, as vips does it: a processing that reduces the image decodes its data at the
/// smallest reduced scale that still covers the result. Each test records the largest pixel
/// buffer allocated, so it proves the reduced decode happened, not only that the output is right.
/// The decodes run on a dispatch thread (``onWorkQueue(_:)``): a full decode of 12 MP under
/// ThreadSanitizer takes long enough to starve the few cooperative threads every other test needs.
@Suite(.timeLimit(.minutes(10))) struct ShrinkOnLoadTests {
    /// A 4000 x 3000 photo-like JPEG, made once with the library's own encoder.
    private static let photoJPEG = try? makeTestImage(width: 4000, height: 3000).encoded(as: .JPEG, compressionQuality: 0.9)
    /// The same photo as lossy WebP.
    private static let photoWebP = try? makeTestImage(width: 4000, height: 3000).encoded(as: .WebP, compressionQuality: 0.8)
    /// The photo's RGBA bytes at full size: what a full decode holds.
    private static let fullByteCount = 4000 * 3000 * 4
    /// The photo's RGBA bytes at TurboJPEG's 1/8 scale (500 x 375): the most a 300 x 225 output may cost.
    private static let eighthByteCount = 500 * 375 * 4

    private static func context(scale: CGFloat = 1, maxPixelCount: Int? = nil) -> ImageProcessingContext {
        var options = ImageCreatingOptions(scale: scale)
        if let maxPixelCount { options.maxPixelCount = maxPixelCount }
        return ImageProcessingContext(imageCreatingOptions: options)
    }

    /// `spec` run on `data` (recording the largest pixel buffer) and on the image a full decode
    /// gives, which is how the output was made before decoding shrank.
    private static func processed(
        _ spec: String, _ data: Data, in context: ImageProcessingContext = context()
    ) async throws -> (image: KingfisherImage, largestByteCount: Int, fullDecode: KingfisherImage, fullDecodeByteCount: Int) {
        let processor = try ImageProcessorSpec.processor(from: spec)
        return try await onWorkQueue {
            let (image, largest) = try PixelAllocationRecord.recording { try processor.process(.data(data), in: context) }
            let (fullDecode, fullLargest) = try PixelAllocationRecord.recording {
                let whole = try KingfisherImage.decode(data: data, options: context.imageCreatingOptions)
                return try processor.process(.image(whole), in: context)
            }
            return (image, largest, fullDecode, fullLargest)
        }
    }

    /// The 4000 x 3000 JPEG, made (once) off the cooperative pool.
    private static func jpeg() async throws -> Data? { try await onWorkQueue { photoJPEG } }
    /// The 4000 x 3000 WebP, made (once) off the cooperative pool.
    private static func webp() async throws -> Data? { try await onWorkQueue { photoWebP } }

    /// What `body` throws, if anything, with the largest pixel buffer allocated meanwhile.
    private static func failure(_ body: () throws -> Void) -> (error: (any Error)?, largestByteCount: Int) {
        let (error, largest) = PixelAllocationRecord.recording { () -> (any Error)? in
            do {
                try body()
                return nil
            } catch {
                return error
            }
        }
        return (error, largest)
    }

    /// `data` with an EXIF APP1 segment right after SOI saying `orientation`.
    private static func withEXIFOrientation(_ data: Data, _ orientation: UInt8) -> Data {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,  // big-endian, first IFD at 8
            0, 1,  // one entry: Orientation, SHORT, 1 value
            0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0,
            0, 0, 0, 0,
        ]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return data.prefix(2) + Data(segment) + data.dropFirst(2)
    }

    // MARK: Processors on data

    @Test(arguments: [
        ("resize(300x200,fill)", 300, 225), ("resize(300x200)", 300, 200), ("resize(300x200,fit)", 267, 200),
        ("downsample(300x300)", 300, 225),
    ])
    func aLargeJPEGIsDecodedAtAnEighth(_ spec: String, width: Int, height: Int) async throws {
        let result = try await Self.processed(spec, try #require(await Self.jpeg()))
        #expect(result.image.pixelWidth == width && result.image.pixelHeight == height)
        #expect(result.largestByteCount <= Self.eighthByteCount, "\(spec) allocated \(result.largestByteCount) bytes")
        // The record sees a full decode where there is one.
        #expect(result.fullDecodeByteCount >= Self.fullByteCount)
        #expect(result.fullDecode.pixelWidth == width && result.fullDecode.pixelHeight == height)
        let quality = psnr(result.image.pixels, result.fullDecode.pixels)
        #expect(quality > 35, "\(spec): \(quality) dB against the full decode")
    }

    @Test func theDecodedImageIsTheOutputWithoutASecondResample() async throws {
        let data = try #require(await Self.jpeg())
        let (image, _, _, _) = try await Self.processed("resize(300x200,fill)", data)
        // The same decode straight to 300 x 225: had the processor resampled again, pixels would differ.
        let thumbnail = try await onWorkQueue { try KingfisherImage.downsampled(data: data, maxPixelSize: 300) }
        #expect(image.pixels == thumbnail.pixels)
        #expect(image.originalData == nil, "a reduced image no longer matches its bytes")
    }

    @Test func sizesInPointsAreDecodedAtTheContextScale() async throws {
        let result = try await Self.processed("resize(150x100,fill)", try #require(await Self.jpeg()), in: Self.context(scale: 2))
        // 150 x 112.5 points, rounded to 150 x 113, at scale 2.
        #expect(result.image.pixelWidth == 300 && result.image.pixelHeight == 226 && result.image.scale == 2)
        #expect(result.image.size == result.fullDecode.size && result.fullDecode.scale == 2)
        #expect(result.largestByteCount <= Self.eighthByteCount)
    }

    @Test func aLargeWebPIsDecodedStraightToTheOutputSize() async throws {
        let result = try await Self.processed("resize(300x200,fill)", try #require(await Self.webp()))
        #expect(result.image.pixelWidth == 300 && result.image.pixelHeight == 225)
        // libwebp scales while decoding: no buffer larger than the output.
        #expect(result.largestByteCount <= 300 * 225 * 4, "allocated \(result.largestByteCount) bytes")
        #expect(result.fullDecodeByteCount >= Self.fullByteCount)
        let quality = psnr(result.image.pixels, result.fullDecode.pixels)
        #expect(quality > 30, "\(quality) dB against the full decode")
    }

    @Test func anEXIFRotatedPhotoIsFittedUpright() async throws {
        // Stored 4000 x 3000 with orientation 6: upright 3000 x 4000.
        let data = Self.withEXIFOrientation(try #require(await Self.jpeg()), 6)
        let result = try await Self.processed("resize(200x300,fill)", data)
        #expect(result.image.pixelWidth == 225 && result.image.pixelHeight == 300)
        #expect(result.image.exifOrientation == 6)
        #expect(result.largestByteCount <= Self.eighthByteCount, "allocated \(result.largestByteCount) bytes")
        #expect(result.fullDecode.pixelWidth == 225 && result.fullDecode.pixelHeight == 300)
        #expect(psnr(result.image.pixels, result.fullDecode.pixels) > 35)
    }

    @Test func aCropOfTheReducedImageNeverHoldsTheWhole() async throws {
        let result = try await Self.processed("resize(300x200,fill)|>crop(300x200)", try #require(await Self.jpeg()))
        #expect(result.image.pixelWidth == 300 && result.image.pixelHeight == 200)
        #expect(result.largestByteCount <= Self.eighthByteCount, "allocated \(result.largestByteCount) bytes")
        #expect(psnr(result.image.pixels, result.fullDecode.pixels) > 35)
    }

    // MARK: Never enlarged

    @Test func anOutputLargerThanTheSourceIsDecodedWholeThenEnlarged() async throws {
        let data = try makeTestImage(width: 400, height: 300).encoded(as: .JPEG, compressionQuality: 0.9)
        // Wider than the source, though far less tall: the decode is not reduced.
        let result = try await Self.processed("resize(800x100)", data)
        #expect(result.image.pixelWidth == 800 && result.image.pixelHeight == 100)
        #expect(result.largestByteCount >= 400 * 300 * 4)
        #expect(result.image.pixels == result.fullDecode.pixels)
    }

    @Test func resizingToTheSourceSizeReturnsTheDecodedImage() async throws {
        let data = try makeTestImage(width: 400, height: 300).encoded(as: .JPEG, compressionQuality: 0.9)
        let result = try await Self.processed("resize(400x300,fill)", data)
        let decoded = try KingfisherImage.decode(data: data)
        #expect(result.image.pixels == decoded.pixels)
        #expect(result.image.originalData == data, "as the full-decode path keeps it")
        #expect(result.fullDecode.originalData == data)
    }

    // MARK: Limits

    @Test func theOutputLimitStillAppliesBeforeTheOutputIsMade() throws {
        let data = try makeTestImage(width: 400, height: 300).encoded(as: .JPEG, compressionQuality: 0.9)
        let processor = ResizingImageProcessor(referenceSize: CGSize(width: 5000, height: 5000))
        let context = Self.context(maxPixelCount: 10_000_000)
        let (thrown, largest) = Self.failure { _ = try processor.process(.data(data), in: context) }
        guard case .outputTooLarge(_, let width, let height, _, let limit)? = thrown as? ImageProcessingError else {
            Issue.record("expected outputTooLarge, got \(String(describing: thrown))")
            return
        }
        #expect(width == 5000 && height == 5000 && limit == 10_000_000)
        #expect(largest <= 400 * 300 * 4, "only the source was decoded")
    }

    @Test func aHugeHeaderIsRefusedBeforeAnyPixelIsAllocated() throws {
        let data = try Fixtures.data("jpeg_65000x65000.jpg")
        let processor = try ImageProcessorSpec.processor(from: "resize(300x200,fill)")
        let (thrown, largest) = Self.failure { _ = try processor.process(.data(data), in: Self.context()) }
        guard case .tooManyPixels(_, let width, let height, _, _)? = thrown as? ImageCodingError else {
            Issue.record("expected tooManyPixels, got \(String(describing: thrown))")
            return
        }
        #expect(width == 65000 && height == 65000)
        #expect(largest == 0)
    }

    // MARK: The manager

    @Test func eachProcessingOfADiskCachedOriginalShrinksOnLoad() async throws {
        try await withManagerSetup(name: "shrink-on-load") { setup in
            let data = try #require(await Self.jpeg())
            // Never served: the original is only on disk, under a forced extension.
            let url = setup.server.url("/image/large-photo.jpg")
            try await setup.cache.storeToDisk(data, forKey: url.cacheKey, forcedExtension: "jpg")
            for (spec, width, height) in [("resize(300x200,fill)", 300, 225), ("resize(300x200,fit)", 267, 200)] {
                let processor = AllocationRecordingProcessor(try ImageProcessorSpec.processor(from: spec))
                let result = try await setup.manager.retrieveImage(
                    with: url, options: [.processor(processor), .onlyFromCache, .forcedCacheFileExtension("jpg"), .waitForCache])
                #expect(result.cacheType == .none)
                #expect(result.image.pixelWidth == width && result.image.pixelHeight == height)
                let runs = processor.runs
                #expect(runs.count == 1 && runs.allSatisfy(\.wasData), "\(spec) was given the original's bytes")
                #expect(runs.allSatisfy { $0.largestByteCount <= Self.eighthByteCount }, "\(spec): \(runs.map(\.largestByteCount))")
                #expect(
                    setup.cache.imageCachedType(
                        forKey: url.cacheKey, processorIdentifier: processor.identifier,
                        forcedExtension: "jpg") == .memory)
            }
            #expect(
                setup.cache.imageCachedType(forKey: url.cacheKey, forcedExtension: "jpg") == .disk,
                "the whole original was never put in memory")
            #expect(setup.server.requests("/image/large-photo.jpg") == 0)
        }
    }

    @Test func anOriginalInMemoryIsProcessedAsAnImage() async throws {
        try await withManagerSetup(name: "shrink-on-load-memory") { setup in
            let data = try makeTestImage(width: 400, height: 300).encoded(as: .JPEG, compressionQuality: 0.9)
            let url = setup.server.url("/image/memory-photo.jpg")
            try await setup.cache.store(try KingfisherImage.decode(data: data), original: data, forKey: url.cacheKey)
            let processor = AllocationRecordingProcessor(try ImageProcessorSpec.processor(from: "resize(40x30)"))
            let result = try await setup.manager.retrieveImage(with: url, options: [.processor(processor), .onlyFromCache])
            #expect(result.image.pixelWidth == 40 && result.image.pixelHeight == 30)
            #expect(processor.runs.count == 1 && processor.runs.allSatisfy { !$0.wasData }, "the decoded original is used")
        }
    }

    @Test func aDiskOriginalThatDoesNotDecodeCountsAsMissing() async throws {
        try await withManagerSetup(name: "shrink-on-load-broken") { setup in
            let url = setup.server.url("/image/broken-photo.jpg")
            try await setup.cache.storeToDisk(Data("not an image".utf8), forKey: url.cacheKey)
            let processor = try ImageProcessorSpec.processor(from: "resize(40x30)")
            await #expect {
                _ = try await setup.manager.retrieveImage(with: url, options: [.processor(processor), .onlyFromCache])
            } throws: { error in
                guard case .cacheError(reason: .imageNotExisting) = error as? KingfisherError else { return false }
                return true
            }
        }
    }
}
