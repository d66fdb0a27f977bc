// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Whether the network is reachable, and a wait for it to come back: what
/// ``NetworkRetryStrategy`` asks, as Kingfisher's internal protocol of the same name.
protocol NetworkMonitoring: Sendable {
    var isConnected: Bool { get }
    /// Calls `callback` once: `true` when the network is back, `false` when `timeoutInterval`
    /// seconds passed first (`nil`: no limit). Nothing is called after the observer is cancelled.
    func observeConnectivity(timeoutInterval: TimeInterval?, callback: @escaping @Sendable (Bool) -> Void) -> any NetworkObserver
}

/// A wait started by ``NetworkMonitoring/observeConnectivity(timeoutInterval:callback:)``.
protocol NetworkObserver: Sendable {
    /// Ends the wait without calling back.
    func cancel()
}

/// Watches ``LinkState`` by reading it every `pollInterval` while someone waits: the files are
/// a few hundred bytes, and nothing is read while nobody waits.
final class NetworkMonitor: NetworkMonitoring {
    static let `default` = NetworkMonitor(linkState: .system, pollInterval: 0.5)

    private let linkState: LinkState
    private let pollInterval: TimeInterval

    init(linkState: LinkState, pollInterval: TimeInterval) {
        self.linkState = linkState
        self.pollInterval = pollInterval
    }

    var isConnected: Bool { linkState.isConnected }

    func observeConnectivity(timeoutInterval: TimeInterval?, callback: @escaping @Sendable (Bool) -> Void) -> any NetworkObserver {
        let observer = LinkObserver(callback: callback)
        let linkState = linkState
        let queue = DispatchQueue.global(qos: .utility)
        if let timeoutInterval {
            // Weak: a wait that ended (or was dropped) is not kept until its deadline.
            queue.asyncAfter(deadline: .now() + timeoutInterval) { [weak observer] in observer?.finish(isConnected: false) }
        }
        observer.poll(every: pollInterval, on: queue) { linkState.isConnected }
        return observer
    }
}

/// One wait: polls until the link is up, it times out, or it is cancelled; calls back once.
private final class LinkObserver: NetworkObserver {
    private struct State {
        var finished = false
        var timer: RepeatingTimer?
    }

    private let callback: @Sendable (Bool) -> Void
    private let state = Locked(State())

    init(callback: @escaping @Sendable (Bool) -> Void) {
        self.callback = callback
    }

    func poll(every interval: TimeInterval, on queue: DispatchQueue, isConnected: @escaping @Sendable () -> Bool) {
        let timer = RepeatingTimer(interval: interval, queue: queue) { [weak self] in
            if isConnected() { self?.finish(isConnected: true) }
        }
        // The timer holds the observer only weakly, and the observer holds the timer until it
        // finishes: a finished wait reads nothing more.
        state.withLock { state in if !state.finished { state.timer = timer } }
    }

    func finish(isConnected: Bool) {
        guard end() else { return }
        callback(isConnected)
    }

    func cancel() {
        _ = end()
    }

    private func end() -> Bool {
        let (first, timer) = state.withLock { state -> (Bool, RepeatingTimer?) in
            defer {
                state.finished = true
                state.timer = nil
            }
            return (!state.finished, state.timer)
        }
        withExtendedLifetime(timer) {}
        return first
    }
}
