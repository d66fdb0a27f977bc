// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher

/// One warning per interval for a failure that repeats with every request (a full or
/// read-only disk): the first at once, then at most one an interval, saying how many were left
/// out, so that the log stays readable and cannot be flooded.
final class WarningThrottle: Sendable {
    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Locked<(lastLogged: ContinuousClock.Instant?, leftOut: Int)>((nil, 0))

    /// - Parameters:
    ///   - interval: The least time between two warnings. Default one minute.
    ///   - now: The clock; tests give their own.
    init(interval: Duration = .seconds(60), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.interval = interval
        self.now = now
    }

    /// Whether to log this occurrence: `nil` to leave it out, else how many were left out since
    /// the last warning.
    func admit() -> Int? {
        let time = now()
        return state.withLock { state in
            if let last = state.lastLogged, time - last < interval {
                state.leftOut += 1
                return nil
            }
            defer { state = (time, 0) }
            return state.leftOut
        }
    }
}
