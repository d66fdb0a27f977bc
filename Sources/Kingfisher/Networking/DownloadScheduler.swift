// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

/// Runs at most ``ImageDownloader/maxConcurrentDownloads`` downloads at once; waiting ones
/// start highest priority first, then in arrival order.
///
/// Waiting downloads sit in a binary heap of (priority, arrival) keys; the operations themselves
/// wait in a dictionary by arrival. A raised priority pushes a second key; the outdated one is
/// skipped when it surfaces, so every step is O(log n).
final class DownloadScheduler: Sendable {
    /// Orders keys highest priority first, then first come.
    private struct Key: Comparable {
        var priority: Float
        var sequence: Int

        static func < (a: Key, b: Key) -> Bool {
            a.priority > b.priority || (a.priority == b.priority && a.sequence < b.sequence)
        }
    }

    private struct State {
        var heap = BinaryHeap<Key>()
        var waiting: [Int: (priority: Float, operation: DownloadOperation)] = [:]
        var running: [Int: DownloadOperation] = [:]
    }

    private let state = Locked(State())
    private let limit: @Sendable () -> Int

    init(limit: @escaping @Sendable () -> Int) {
        self.limit = limit
    }

    func enqueue(_ operation: DownloadOperation) {
        let priority = operation.priority
        state.withLock { state in
            state.waiting[operation.sequence] = (priority, operation)
            state.heap.push(Key(priority: priority, sequence: operation.sequence))
        }
        startWaiting()
    }

    /// A waiting download's priority rose.
    func reprioritize(_ operation: DownloadOperation, to priority: Float) {
        state.withLock { state in
            guard let current = state.waiting[operation.sequence]?.priority, priority > current else { return }
            state.waiting[operation.sequence] = (priority, operation)
            state.heap.push(Key(priority: priority, sequence: operation.sequence))
        }
    }

    /// Forgets `operation`, waiting or running (idempotent), and fills the freed slot.
    func ended(_ operation: DownloadOperation) {
        state.withLock { state in
            state.running[operation.sequence] = nil
            state.waiting[operation.sequence] = nil
        }
        startWaiting()
    }

    /// How many downloads run and wait, for tests and diagnostics.
    var counts: (running: Int, pending: Int) { state.withLock { ($0.running.count, $0.waiting.count) } }

    /// Starts waiting downloads while slots are free.
    func startWaiting() {
        let limit = limit()
        let starting = state.withLock { state -> [DownloadOperation] in
            var starting: [DownloadOperation] = []
            while state.running.count < limit, let key = state.heap.pop() {
                // Skip keys of downloads that ended or whose priority has since been raised.
                guard let waiting = state.waiting[key.sequence], waiting.priority == key.priority else { continue }
                state.waiting[key.sequence] = nil
                state.running[key.sequence] = waiting.operation
                starting.append(waiting.operation)
            }
            return starting
        }
        for operation in starting { operation.start() }
    }
}
