// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import NIOCore

/// The public API speaks `Duration`; NIO's timers and deadlines take `TimeAmount`.
extension TimeAmount {
    /// `duration`, to the nanosecond (saturating at NIO's range).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = .nanoseconds(
            overflow ? (seconds < 0 ? .min : .max) : nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }

    /// The amount in seconds, for messages.
    var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The amount in whole milliseconds, at least 1: Redis's `PX` refuses 0.
    var milliseconds: Int64 { max(1, nanoseconds / 1_000_000) }
}
