// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Kingfisher
import NIOCore

/// The client connections open at once, held under a cap: a connection past it takes the place
/// of the connection idle the longest (one with no request in flight: between requests, or
/// still sending its first request's head), and is refused only when every connection has a
/// request in flight.
///
/// Idle connections cost a file descriptor and a little memory each, and do nothing for the
/// service: closing them first keeps the descriptors for connections that send requests, so a
/// flood of idle connections (or of slowloris heads) cannot lock other clients out, and accept
/// never runs out of descriptors.
final class ConnectionRegistry: Sendable {
    /// What becomes of a new connection.
    enum Admission {
        /// It fits under the cap.
        case admitted
        /// It fits once this idle connection, no longer counted, is closed.
        case admittedClosing(any Channel)
        /// Every connection has a request in flight: answer `503` and close it.
        case refused
    }

    private struct Entry {
        var channel: any Channel
        /// When it last became idle (an order, not a time); `nil` while a request is in flight.
        var idleSince: UInt64?
    }

    private struct State {
        var open: [UInt64: Entry] = [:]
        /// Idle connections, oldest first, as (id, idleSince); entries whose connection has
        /// closed or become busy since are skipped when met.
        var idleOrder: [(id: UInt64, since: UInt64)] = []
        var idleOrderStart = 0
        var nextID: UInt64 = 0
        var nextIdleStamp: UInt64 = 0

        mutating func markIdle(_ id: UInt64) {
            guard open[id] != nil else { return }
            nextIdleStamp += 1
            open[id]?.idleSince = nextIdleStamp
            idleOrder.append((id, nextIdleStamp))
        }

        /// Removes and returns the connection idle the longest.
        mutating func takeLongestIdle() -> (any Channel)? {
            while idleOrderStart < idleOrder.count {
                let candidate = idleOrder[idleOrderStart]
                idleOrderStart += 1
                if let entry = open[candidate.id], entry.idleSince == candidate.since {
                    open[candidate.id] = nil
                    compactIdleOrder()
                    return entry.channel
                }
            }
            compactIdleOrder()
            return nil
        }

        /// Drops the consumed front of `idleOrder` once it is most of it, and stale entries once
        /// they outnumber the open connections, so that it stays within a small multiple of them.
        mutating func compactIdleOrder() {
            if idleOrderStart > 1024, idleOrderStart * 2 > idleOrder.count {
                idleOrder.removeFirst(idleOrderStart)
                idleOrderStart = 0
            }
            if idleOrder.count > 4 * open.count + 1024 {
                idleOrder = idleOrder[idleOrderStart...].filter { open[$0.id]?.idleSince == $0.since }
                idleOrderStart = 0
            }
        }
    }

    /// The most connections open at once.
    let limit: Int
    private let state = Locked(State())
    /// Told the number of open connections after each change, under the lock (a gauge's store).
    private let onChange: @Sendable (_ open: Int) -> Void

    init(limit: Int, onChange: @escaping @Sendable (_ open: Int) -> Void = { _ in }) {
        self.limit = max(1, limit)
        self.onChange = onChange
    }

    /// Counts `channel` in, idle, and says whether it may stay. The caller closes the channel
    /// an admission names, and answers a refused one.
    func admit(_ channel: any Channel) -> (id: UInt64, admission: Admission) {
        state.withLock { state in
            state.nextID += 1
            let id = state.nextID
            var admission = Admission.admitted
            if state.open.count >= limit {
                guard let closing = state.takeLongestIdle() else { return (id, .refused) }
                admission = .admittedClosing(closing)
            }
            state.open[id] = Entry(channel: channel, idleSince: nil)
            state.markIdle(id)
            onChange(state.open.count)
            return (id, admission)
        }
    }

    /// The connection `id` has a request in flight: it is not closed to make room.
    func markBusy(_ id: UInt64) {
        state.withLock { $0.open[id]?.idleSince = nil }
    }

    /// The connection `id` has answered its requests and waits for another.
    func markIdle(_ id: UInt64) {
        state.withLock { $0.markIdle(id) }
    }

    /// The connection `id` closed.
    func remove(_ id: UInt64) {
        state.withLock { state in
            guard state.open.removeValue(forKey: id) != nil else { return }
            state.compactIdleOrder()
            onChange(state.open.count)
        }
    }
}
