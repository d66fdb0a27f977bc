// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

@testable import Kingfisher

/// The committed fixtures (made by Fixtures/make_fixtures.py) and their manifest.
enum Fixtures {
    /// Tests/KingfisherTests/Fixtures.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var format: String
        var purpose: String
        var width: Int?
        var height: Int?
        var frames: Int?
        var durations: [Double]?
        var loopCount: Int?
        var hasAlpha: Bool?
        var orientation: Int?
        var refs: [String]?
        var refKind: String?
        var testDescription: String { file }
    }

    static let all: [Entry] = manifest(in: directory)

    /// The `fixtures` array of the manifest.json in `directory`.
    static func manifest<Entry: Decodable>(in directory: URL) -> [Entry] {
        let data = try! Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        return try! JSONDecoder().decode(Manifest<Entry>.self, from: data).fixtures
    }

    private struct Manifest<Entry: Decodable>: Decodable {
        var fixtures: [Entry]
    }

    static func entries(purpose: String) -> [Entry] { all.filter { $0.purpose == purpose } }

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }

    /// Decodes a reference PNG (8-bit RGBA, written by Pillow).
    static func reference(_ file: String) throws -> KingfisherImage {
        try KingfisherImage.decode(data: data(file))
    }
}
