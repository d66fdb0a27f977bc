// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Testing

/// Fixtures/saliency: a subject placed off centre on a plain or textured background
/// (make_saliency_fixtures.py), for smart crops.
package enum SaliencyFixtures {
    package struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        package var file: String
        /// The subject's box in the file's pixels: x, y, width, height.
        package var subject: [Int]
        /// The smart fill asked for.
        package var spec: String
        package var testDescription: String { file }
    }

    package static let folder = FixtureFolder<Entry>("saliency")
    package static let all = folder.entries
}
