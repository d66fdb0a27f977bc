// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

/// Fixtures/lenient: malformed files that browsers still show, made by
/// make_lenient_fixtures.py, each with the pixels a browser shows for it.
package enum LenientFixtures {
    package struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        package var file: String
        package var ref: String
        package var width: Int
        package var height: Int
        /// The frames a decoder reports (a broken animation falls back to its default image).
        package var frames: Int
        /// The least PSNR against `ref`; `nil`: the pixels must be exact.
        package var minPSNR: Double?
        /// How the file is broken.
        package var note: String
        package var testDescription: String { file }
    }

    package static let folder = FixtureFolder<Entry>("lenient")
    package static let all = folder.entries
}
