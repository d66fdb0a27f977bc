// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Reads fuzzed bytes as parameters, eight bytes per `Double` (zeros once they run out).
struct ParameterReader {
    private var bytes: Data.SubSequence

    init(_ bytes: Data.SubSequence) { self.bytes = bytes }

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func next() -> CGFloat {
        var pattern: UInt64 = 0
        for _ in 0..<8 { pattern = pattern << 8 | UInt64(byte()) }
        return CGFloat(Double(bitPattern: pattern))
    }
}
