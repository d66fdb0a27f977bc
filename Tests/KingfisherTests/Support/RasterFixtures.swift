// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

/// The TIFF, BMP and ICO fixtures (made by Fixtures/raster/make_raster_fixtures.py) and their
/// manifest.
enum RasterFixtures {
    static let directory = Fixtures.directory.appendingPathComponent("raster")

    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        /// A downsampled decode and its expected pixels.
        struct Thumbnail: Decodable, Sendable {
            var maxPixelSize: Int
            var ref: String
        }

        var file: String
        var ref: String
        /// The upright size.
        var width: Int
        var height: Int
        var hasAlpha: Bool
        /// The largest per-channel difference allowed against `ref`, unless `minPSNR` is given.
        var maxError: Int
        var minPSNR: Double?
        var orientation: Int
        /// The size of the embedded ICC profile, if any.
        var icc: Int?
        var thumbnail: Thumbnail?
        var testDescription: String { file }
    }

    static let all: [Entry] = Fixtures.manifest(in: directory)

    static func data(_ file: String) throws -> Data {
        try Fixtures.data("raster/" + file)
    }
}
