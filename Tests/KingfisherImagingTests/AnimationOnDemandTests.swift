// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherTestKit
import Testing

@testable import KingfisherImaging

/// Animated PNG, and animations that keep their data and decode frames when asked.
@Suite(.timeLimit(.minutes(10))) struct AnimationOnDemandTests {
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var width: Int
        var height: Int
        var frames: Int
        var durations: [Double]
        var loopCount: Int
        var refs: [String]
        var testDescription: String { file }
    }

    static let folder = FixtureFolder<Entry>("apng")
    static let entries = folder.entries

    static func data(_ file: String) throws -> Data {
        try folder.data(file)
    }

    @Test(arguments: entries)
    func apngFramesMatchPillow(_ entry: Entry) throws {
        let image = try KingfisherImage.decode(data: Self.data(entry.file))
        #expect(image.pixelWidth == entry.width && image.pixelHeight == entry.height)
        #expect(image.frameCount == entry.frames && image.loopCount == entry.loopCount)
        #expect((0..<image.frameCount).map(image.frameDuration(at:)) == entry.durations)
        for (index, ref) in entry.refs.enumerated() {
            let reference = try KingfisherImage.decode(data: Self.data(ref))
            #expect(maxVisibleDifference(try image.frame(at: index).pixels, reference.pixels) <= 1, "\(entry.file) frame \(index)")
        }
        let preloaded = try KingfisherImage.decode(data: Self.data(entry.file), options: ImageCreatingOptions(preloadAll: true))
        #expect(preloaded.frames.map(\.pixels) == image.frames.map(\.pixels))
        #expect(
            try KingfisherImage.decode(data: Self.data(entry.file), options: ImageCreatingOptions(onlyFirstFrame: true)).frameCount == 1)
    }

    /// Frames asked for out of order: going back restarts the reader, and the window answers
    /// what it holds.
    @Test func framesCanBeAskedForInAnyOrder() throws {
        for file in ["gif_disposal_previous.gif", "webp_animated.webp"] {
            let data = try Fixtures.data(file)
            let eager = try KingfisherImage.decode(data: data, options: ImageCreatingOptions(preloadAll: true)).frames
            let image = try KingfisherImage.decode(data: data)
            for index in [2, 0, 1, 2, 1] {
                #expect(try image.frame(at: index).pixels == eager[index].pixels, "\(file) frame \(index)")
            }
        }
        let entry = try #require(Self.entries.first { $0.file.contains("previous") })
        let apng = try KingfisherImage.decode(data: Self.data(entry.file))
        for index in [3, 1, 0, 2] {
            #expect(
                try maxVisibleDifference(apng.frame(at: index).pixels, KingfisherImage.decode(data: Self.data(entry.refs[index])).pixels)
                    <= 1)
        }
    }

    /// A long animation holds its file and a window of frames, however many frames are read.
    @Test func aLongAnimationHoldsAWindowOfFrames() throws {
        let gif = try GIFEncoder.encode(Self.animation(frames: 60, width: 64, height: 48))
        let image = try KingfisherImage.decode(data: gif)
        let frameBytes = 64 * 48 * 4
        #expect(image.frameCount == 60)
        for index in 0..<image.frameCount { _ = try image.frame(at: index) }
        #expect(image.cost <= gif.count + frameBytes * (1 + FramesDecodedOnDemand.preferredWindowCount))
        // Resized frame by frame; the result is what resizing every frame up front gives.
        let resized = image.kf.resize(to: CGSize(width: 32, height: 24))
        #expect(resized.frameCount == 60)
        let eager = try KingfisherImage.decode(data: gif, options: ImageCreatingOptions(preloadAll: true)).kf.resize(
            to: CGSize(width: 32, height: 24))
        #expect(try resized.frame(at: 59).pixels == eager.frame(at: 59).pixels)
        let encoded = try KingfisherImage.decode(data: resized.encoded(as: .GIF))
        #expect(encoded.frameCount == 60 && encoded.pixelWidth == 32)
    }

    /// A frame outside the canvas makes the animation invalid: the file shows its default
    /// image alone, as browsers do.
    @Test func anAPNGWithAFrameOutsideTheCanvasShowsItsDefaultImage() throws {
        var bytes = [UInt8](try Self.data(Self.entries[0].file))
        // The second fcTL's x offset (its data: sequence, width, height, x, y, ...).
        let fcTL = Array("fcTL".utf8)
        let second = try #require((0..<bytes.count - 4).filter { Array(bytes[$0..<$0 + 4]) == fcTL }.dropFirst().first)
        bytes[second + 4 + 12..<second + 4 + 16] = [0, 0, 0x10, 0]
        let image = try KingfisherImage.decode(data: Data(bytes))
        let defaultImage = try KingfisherImage.decode(data: Data(bytes), options: ImageCreatingOptions(onlyFirstFrame: true))
        #expect(image.frameCount == 1)
        #expect(image.pixels == defaultImage.pixels)
    }

    @Test(arguments: entries)
    func damagedAPNGsNeverCrash(_ entry: Entry) throws {
        let data = try Self.data(entry.file)
        for length in Swift.stride(from: 1, to: data.count, by: max(1, data.count / 131)) {
            do {
                let image = try KingfisherImage.decode(data: Data(data.prefix(length)))
                _ = image.frames
            } catch {
                #expect(error is ImageCodingError, "\(entry.file)[..<\(length)]: \(error)")
            }
        }
    }

    static func animation(frames count: Int, width: Int, height: Int) -> KingfisherImage {
        let frames = (0..<count).map { index in
            ImageFrame(
                pixels: (0..<(width * height)).flatMap { pixel -> [UInt8] in
                    [
                        UInt8(truncatingIfNeeded: pixel &+ index * 7), UInt8(truncatingIfNeeded: index * 11),
                        UInt8(truncatingIfNeeded: pixel / width * 5), 255,
                    ]
                }, duration: 0.05)
        }
        return KingfisherImage(width: width, height: height, frames: frames, hasAlpha: false)
    }
}
