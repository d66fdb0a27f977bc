import Foundation
import Synchronization

/// Ends downloads that make no progress for their timeout: a response head or a body chunk
/// counts as progress. One timer per process checks every watched download four times a second,
/// so a download costs no timer of its own.
final class IdleWatchdog: Sendable {
    private struct State {
        var lastActivity = ContinuousClock.now
        var watching = false
        var fired = false
    }

    private let timeout: TimeInterval
    private let state = Mutex(State())
    private let onTimeout: @Sendable () -> Void

    /// - Parameter onTimeout: Called once, from the monitor's queue, when the timeout passes
    ///   without progress while watching.
    init(timeout: TimeInterval, onTimeout: @escaping @Sendable () -> Void) {
        self.timeout = timeout
        self.onTimeout = onTimeout
    }

    /// Starts watching; the timeout counts from now.
    func start() {
        state.withLock {
            $0.lastActivity = .now
            $0.watching = true
        }
        WatchdogMonitor.shared.add(self)
    }

    /// Stops watching (idempotent).
    func stop() {
        let wasWatching = state.withLock { state -> Bool in
            defer { state.watching = false }
            return state.watching
        }
        if wasWatching { WatchdogMonitor.shared.remove(self) }
    }

    /// Records progress.
    func touch() {
        state.withLock { $0.lastActivity = .now }
    }

    /// Fires when idle too long; called by the shared monitor.
    fileprivate func check(now: ContinuousClock.Instant) {
        let expired = state.withLock { state -> Bool in
            guard state.watching, !state.fired, (now - state.lastActivity).seconds >= timeout else { return false }
            state.fired = true
            return true
        }
        if expired { onTimeout() }
    }
}

/// The one timer that checks every watched download's ``IdleWatchdog``. It stops at the first
/// tick that finds nothing to watch, not when the last download ends: downloads one after
/// another then share one timer instead of making one each.
private final class WatchdogMonitor: Sendable {
    static let shared = WatchdogMonitor()

    private struct State {
        var watched: [ObjectIdentifier: IdleWatchdog] = [:]
        var ticker: RepeatingTimer?
    }

    private let state = Mutex(State())

    func add(_ watchdog: IdleWatchdog) {
        state.withLock { state in
            state.watched[ObjectIdentifier(watchdog)] = watchdog
            if state.ticker == nil {
                // Its own queue at user-initiated priority: a busy machine must not starve the
                // timeouts of requests users are waiting for.
                state.ticker = RepeatingTimer(interval: 0.25, queue: DispatchQueue(label: "com.onevcat.Kingfisher.IdleWatchdog",
                                                                                  qos: .userInitiated)) {
                    WatchdogMonitor.shared.tick()
                }
            }
        }
    }

    func remove(_ watchdog: IdleWatchdog) {
        state.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(watchdog)) }
    }

    private func tick() {
        let now = ContinuousClock.now
        let (watched, stopped) = state.withLock { state -> ([IdleWatchdog], RepeatingTimer?) in
            guard state.watched.isEmpty else { return (Array(state.watched.values), nil) }
            defer { state.ticker = nil }
            return ([], state.ticker)
        }
        // Released outside the lock: its deinit cancels the timer.
        withExtendedLifetime(stopped) {}
        for watchdog in watched { watchdog.check(now: now) }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
