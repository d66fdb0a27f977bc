// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Work that fails when it makes no progress for too long, or runs too long: a download.
protocol IdleTimed: AnyObject, Sendable {
    /// Ends the work if at `now` it has been idle past its timeout or running past its limit.
    func checkIdle(now: ContinuousClock.Instant)
}

/// The one timer that checks every running download for idleness, four times a second, so a
/// download costs no timer of its own. The timer stops at the first tick that finds nothing to
/// watch, not when the last download ends: downloads one after another share one timer.
final class IdleWatchdog: Sendable {
    static let shared = IdleWatchdog()

    private struct State {
        var watched: [ObjectIdentifier: any IdleTimed] = [:]
        var ticker: RepeatingTimer?
    }

    private let state = Locked(State())

    /// Checks `work` until ``unwatch(_:)`` (holding it until then).
    func watch(_ work: any IdleTimed) {
        state.withLock { state in
            state.watched[ObjectIdentifier(work)] = work
            if state.ticker == nil {
                // Its own queue at user-initiated priority: a busy machine must not starve the
                // timeouts of requests users are waiting for.
                state.ticker = RepeatingTimer(
                    interval: 0.25,
                    queue: DispatchQueue(
                        label: "com.onevcat.Kingfisher.IdleWatchdog",
                        qos: .userInitiated)
                ) {
                    IdleWatchdog.shared.tick()
                }
            }
        }
    }

    func unwatch(_ work: any IdleTimed) {
        state.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(work)) }
    }

    private func tick() {
        let now = ContinuousClock.now
        let (watched, stopped) = state.withLock { state -> ([any IdleTimed], RepeatingTimer?) in
            guard state.watched.isEmpty else { return (Array(state.watched.values), nil) }
            defer { state.ticker = nil }
            return ([], state.ticker)
        }
        // Released outside the lock: its deinit cancels the timer.
        withExtendedLifetime(stopped) {}
        for work in watched { work.checkIdle(now: now) }
    }
}
