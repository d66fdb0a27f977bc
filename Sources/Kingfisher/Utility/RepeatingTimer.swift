// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Foundation

/// A repeating timer on a global queue that stops when released: the caches' background cleaners.
/// `@unchecked Sendable`: its only state is a `let` DispatchSource, whose methods are thread-safe.
final class RepeatingTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer

    /// Starts calling `handler` on `queue` (default: the global utility queue) every `interval`
    /// seconds (first after one interval), or returns `nil` when `interval` is not a positive
    /// finite number.
    init?(interval: TimeInterval, queue: DispatchQueue = .global(qos: .utility), handler: @escaping @Sendable () -> Void) {
        guard interval > 0, interval.isFinite else { return nil }
        source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        source.setEventHandler(handler: handler)
        source.resume()
    }

    deinit {
        source.cancel()
    }
}
