// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

// Every suite carries a 10-minute time limit: it turns a hang into a failure, and is not a speed
// check. Swift Testing counts it per test from the test's start, and tests run in parallel on
// the cooperative pool (one thread per core), so under a sanitizer on two cores a test can wait
// a long time for a thread: the limit must outlast a whole ThreadSanitizer run (about two and a
// half minutes on two cores). Waits in tests (WaitableState) end when the time limit cancels them.

/// How much slower and larger code runs under a sanitizer: `scripts/sanitize.sh` sets
/// `KF_SANITIZER`, and tests multiply their time and memory bounds by these (1 otherwise), so
/// a bound still catches a decompression bomb being allocated while sanitizer overhead passes.
package enum SanitizerAllowance {
    package static let isActive = ProcessInfo.processInfo.environment["KF_SANITIZER"] != nil
    /// ThreadSanitizer slows code 5-15x, AddressSanitizer about 2x.
    package static let time = isActive ? 10 : 1
    /// Both map shadow memory: ~80 MB for the tiny kf process under ThreadSanitizer.
    package static let memory = isActive ? 4 : 1
}
