// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

@testable import Kingfisher

/// The committed fixtures (made by Fixtures/make_fixtures.py) and their manifest.
package enum Fixtures {
    /// Tests/Fixtures.
    package static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    package struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        package var name: String
        package var file: String
        package var format: String
        package var purpose: String
        package var width: Int?
        package var height: Int?
        package var frames: Int?
        package var durations: [Double]?
        package var loopCount: Int?
        package var hasAlpha: Bool?
        package var orientation: Int?
        package var refs: [String]?
        package var refKind: String?
        package var testDescription: String { file }
    }

    package static let all: [Entry] = manifest(in: directory)

    /// The `fixtures` array of the manifest.json in `directory`.
    package static func manifest<Entry: Decodable>(in directory: URL) -> [Entry] {
        let data = try! Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        return try! JSONDecoder().decode(Manifest<Entry>.self, from: data).fixtures
    }

    private struct Manifest<Entry: Decodable>: Decodable {
        var fixtures: [Entry]
    }

    package static func entries(purpose: String) -> [Entry] { all.filter { $0.purpose == purpose } }

    package static func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }

    /// Decodes a reference PNG (8-bit RGBA, written by Pillow).
    package static func reference(_ file: String) throws -> KingfisherImage {
        try KingfisherImage.decode(data: data(file))
    }
}
