// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// A small deterministic random generator (SplitMix64), so a failing case can be reproduced.
package struct SeededGenerator: RandomNumberGenerator {
    package var state: UInt64

    /// A generator that starts from `state`.
    package init(state: UInt64) {
        self.state = state
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
