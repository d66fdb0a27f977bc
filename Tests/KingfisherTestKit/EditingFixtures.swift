// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import KingfisherImaging
import Testing

/// Fixtures/editing: small sources and, for each editing step, the pixels Pillow makes of them
/// (make_editing_fixtures.py).
package enum EditingFixtures {
    package struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        package var source: String
        /// The step in the processing grammar.
        package var spec: String
        package var ref: String
        /// The least PSNR against `ref`; `nil`: exact within ``tolerance``.
        package var minPSNR: Double?
        /// The largest per-channel difference allowed when ``minPSNR`` is `nil`.
        package var tolerance: Int
        package var testDescription: String { spec }

        /// How `image` falls short of the reference, in one line; `nil` when it matches it.
        package func shortfall(of image: KingfisherImage) throws -> String? {
            let reference = try KingfisherImage.decode(data: folder.data(ref))
            guard image.pixelWidth == reference.pixelWidth, image.pixelHeight == reference.pixelHeight else {
                return "\(spec) made \(image.pixelWidth)x\(image.pixelHeight), Pillow \(reference.pixelWidth)x\(reference.pixelHeight)"
            }
            if let minPSNR {
                let quality = psnr(image.pixels, reference.pixels)
                return quality >= minPSNR ? nil : "\(spec) is \(quality) dB from Pillow's, under \(minPSNR)"
            }
            let difference = maxDifference(image.pixels, reference.pixels)
            return difference <= tolerance ? nil : "\(spec) differs from Pillow's by \(difference), over \(tolerance)"
        }
    }

    package static let folder = FixtureFolder<Entry>("editing")
    package static let all = folder.entries
}
