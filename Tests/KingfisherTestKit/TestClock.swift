// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

@testable import Kingfisher

/// A clock tests move by hand.
package final class TestClock: Sendable {
    /// A clock at a fixed date.
    package init() {}

    private let now = Locked(Date(timeIntervalSince1970: 1_000_000))
    package var date: Date { now.withLock { $0 } }
    package func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    package var function: @Sendable () -> Date { { self.date } }
}
