// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import KingfisherTestKit

/// A window's rendering, as the programs under test wrote it (a PNG), read back with the
/// library's decoder.
struct WindowScreenshot {
    let image: KingfisherImage

    init(contentsOf url: URL) throws {
        image = try KingfisherImage.decode(data: Data(contentsOf: url))
    }

    var width: Int { image.pixelWidth }
    var height: Int { image.pixelHeight }

    /// The colour at `(x, y)`, as red, green, blue.
    func color(_ x: Int, _ y: Int) -> RGB {
        let offset = (y * image.pixelWidth + x) * 4
        let pixels = image.pixels
        return RGB(Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
    }

    /// The colours in the square of side `side` centred on `(x, y)`.
    func colors(around x: Int, _ y: Int, side: Int) -> [RGB] {
        var colors: [RGB] = []
        for row in (y - side / 2)..<(y + side / 2) {
            for column in (x - side / 2)..<(x + side / 2) { colors.append(color(column, row)) }
        }
        return colors
    }
}

/// A colour without alpha.
struct RGB: Equatable, CustomStringConvertible {
    var red: Int, green: Int, blue: Int

    init(_ red: Int, _ green: Int, _ blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Whether each channel is within `tolerance` of `other`'s.
    func isClose(to other: RGB, tolerance: Int = 6) -> Bool {
        abs(red - other.red) <= tolerance && abs(green - other.green) <= tolerance && abs(blue - other.blue) <= tolerance
    }

    var description: String { "(\(red), \(green), \(blue))" }
}
