// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

/// The TIFF, BMP and ICO fixtures (made by Fixtures/raster/make_raster_fixtures.py) and their
/// manifest.
package enum RasterFixtures {
    package static let directory = Fixtures.directory.appendingPathComponent("raster")

    package struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        /// A downsampled decode and its expected pixels.
        package struct Thumbnail: Decodable, Sendable {
            package var maxPixelSize: Int
            package var ref: String
        }

        package var file: String
        package var ref: String
        /// The upright size.
        package var width: Int
        package var height: Int
        package var hasAlpha: Bool
        /// The largest per-channel difference allowed against `ref`, unless `minPSNR` is given.
        package var maxError: Int
        package var minPSNR: Double?
        package var orientation: Int
        /// The size of the embedded ICC profile, if any.
        package var icc: Int?
        package var thumbnail: Thumbnail?
        package var testDescription: String { file }
    }

    package static let all: [Entry] = Fixtures.manifest(in: directory)

    package static func data(_ file: String) throws -> Data {
        try Fixtures.data("raster/" + file)
    }
}
