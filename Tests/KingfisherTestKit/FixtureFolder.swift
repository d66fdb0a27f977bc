// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// A folder of fixtures under Fixtures/ with a manifest.json of its own (`{"fixtures": [...]}`),
/// made by the generator script in that folder.
package struct FixtureFolder<Entry: Decodable & Sendable>: Sendable {
    package let directory: URL

    package init(_ name: String) {
        directory = Fixtures.directory.appendingPathComponent(name)
    }

    private struct Manifest: Decodable {
        var fixtures: [Entry]
    }

    /// The manifest's entries, in order.
    package var entries: [Entry] {
        let data = try! Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).fixtures
    }

    package func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }
}
