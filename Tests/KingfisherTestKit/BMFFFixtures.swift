// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

/// The HEIC, AVIF and JPEG XL fixtures in Fixtures/bmff (made by its make_bmff_fixtures.py) and
/// their manifest.
package enum BMFFFixtures {
    package static let directory = Fixtures.directory.appendingPathComponent("bmff")

    package struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        package var file: String
        package var format: String
        package var reference: String
        package var width: Int
        package var height: Int
        package var alpha: Bool
        package var minPSNR: Double
        package var colorSpace: String
        package var testDescription: String { file }
    }

    /// The HEIC whose thumbnail is its source's every 4th pixel of every 4th row.
    package struct Thumbnail: Decodable, Sendable {
        package var file: String
        package var thumbnailWidth: Int
        package var thumbnailHeight: Int
        package var reference: String
    }

    package struct Named: Decodable, Sendable, CustomTestStringConvertible {
        package var file: String
        package var testDescription: String { file }
    }

    private struct Manifest: Decodable {
        var fixtures: [Entry]
        var thumbnail: Thumbnail
        var huge: [Named]
    }

    private static let manifest: Manifest = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data)
    }()

    package static var entries: [Entry] { manifest.fixtures }
    package static var thumbnail: Thumbnail { manifest.thumbnail }
    /// Files whose header claims 16000 x 16000 (HEIC, AVIF) or 20000 x 20000 (JPEG XL) pixels.
    package static var huge: [String] { manifest.huge.map(\.file) }

    package static func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }
}
