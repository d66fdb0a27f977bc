// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

/// The HEIC, AVIF and JPEG XL fixtures in Fixtures/bmff (made by its make_bmff_fixtures.py) and
/// their manifest.
enum BMFFFixtures {
    static let directory = Fixtures.directory.appendingPathComponent("bmff")

    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var format: String
        var reference: String
        var width: Int
        var height: Int
        var alpha: Bool
        var minPSNR: Double
        var colorSpace: String
        var testDescription: String { file }
    }

    /// The HEIC whose thumbnail is its source's every 4th pixel of every 4th row.
    struct Thumbnail: Decodable, Sendable {
        var file: String
        var thumbnailWidth: Int
        var thumbnailHeight: Int
        var reference: String
    }

    struct Named: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var testDescription: String { file }
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

    static var entries: [Entry] { manifest.fixtures }
    static var thumbnail: Thumbnail { manifest.thumbnail }
    /// Files whose header claims 16000 x 16000 (HEIC, AVIF) or 20000 x 20000 (JPEG XL) pixels.
    static var huge: [String] { manifest.huge.map(\.file) }

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }
}
