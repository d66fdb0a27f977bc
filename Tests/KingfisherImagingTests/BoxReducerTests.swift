// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import KingfisherTestKit
import Testing

@testable import Kingfisher
@testable import KingfisherImaging

/// The streaming area-average reduction used before the Lanczos pass of downsampled decodes.
@Suite(.timeLimit(.minutes(10))) struct BoxReducerTests {
    func reduce(
        _ pixels: [UInt8], width: Int, height: Int, factor: Int, hasAlpha: Bool,
        channels: Int = 4
    ) -> BoxReducer {
        var reducer = BoxReducer(width: width, height: height, factor: factor, hasAlpha: hasAlpha, rowChannels: channels)
        pixels.withUnsafeBufferPointer { buffer in
            for y in 0..<height { reducer.add(row: buffer.baseAddress! + y * width * channels) }
        }
        return reducer
    }

    /// Both paths (column sums for opaque images, alpha-weighted sums otherwise) over two block
    /// rows: each row of blocks lands in its own output row; blocks cut short by the image's
    /// edges average what they hold.
    @Test(arguments: [false, true])
    func averagesEveryBlockPartialOnesIncluded(hasAlpha: Bool) {
        // 3x3 opaque: the 2x2 block, a 1x2 edge, a 2x1 edge and a 1x1 corner.
        let values: [UInt8] = [10, 20, 90, 30, 40, 100, 70, 80, 200]
        let pixels: [UInt8] = values.flatMap { value -> [UInt8] in [value, value, value, 255] }
        let reducer = reduce(pixels, width: 3, height: 3, factor: 2, hasAlpha: hasAlpha)
        #expect(reducer.outputWidth == 2 && reducer.outputHeight == 2)
        let grey = stride(from: 0, to: reducer.pixels.count, by: 4).map { reducer.pixels[$0] }
        #expect(grey == [25, 95, 75, 200])
        #expect(stride(from: 3, to: reducer.pixels.count, by: 4).allSatisfy { reducer.pixels[$0] == 255 })
    }

    @Test func transparentPixelsLendNoColour() {
        // One red opaque pixel and three transparent blue ones: the colour stays red.
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0]
        let reducer = reduce(pixels, width: 2, height: 2, factor: 2, hasAlpha: true)
        #expect(reducer.pixels == [255, 0, 0, 64])
        let clear = reduce([UInt8](repeating: 0, count: 16), width: 2, height: 2, factor: 2, hasAlpha: true)
        #expect(clear.pixels == [0, 0, 0, 0])
    }

    @Test func factorKeepsTwiceTheTarget() {
        #expect(BoxReducer.factor(width: 4000, height: 3000, target: (400, 300)) == 5)
        #expect(BoxReducer.factor(width: 700, height: 500, target: (400, 286)) == 1)
        #expect(BoxReducer.factor(width: 100_000, height: 100_000, target: (10, 10)) == 255)
    }

    /// Opaque grey and RGB rows, as PNG files hold them, reduce to what their RGBA expansion does.
    @Test(arguments: [1, 3])
    func rowsWithFewerChannelsReduceAsTheirRGBAExpansion(channels: Int) {
        var random = SeededGenerator(state: UInt64(channels))
        let width = 23
        let height = 17
        let source = (0..<(width * height * channels)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let rgba = (0..<(width * height)).flatMap { index -> [UInt8] in
            let pixel = source[(index * channels)..<((index + 1) * channels)]
            return channels == 1 ? [pixel.first!, pixel.first!, pixel.first!, 255] : Array(pixel) + [255]
        }
        let direct = reduce(source, width: width, height: height, factor: 3, hasAlpha: false, channels: channels)
        let expanded = reduce(rgba, width: width, height: height, factor: 3, hasAlpha: false)
        #expect(direct.outputWidth == 8 && direct.outputHeight == 6)
        #expect(direct.pixels == expanded.pixels)
    }
}
