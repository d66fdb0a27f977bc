import Foundation
import Synchronization

/// Runs at most ``ImageDownloader/maximumConcurrentDownloads`` downloads at once; waiting ones
/// start highest priority first, then in arrival order.
///
/// Waiting downloads sit in a binary heap keyed by (priority, arrival). A raised priority pushes
/// a second entry; the outdated one is skipped when it surfaces, so every step is O(log n).
final class DownloadScheduler: Sendable {
    private struct Entry {
        var operation: DownloadOperation
        var priority: Float
        var sequence: Int
    }

    private struct State {
        var heap = BinaryHeap<Entry> { a, b in a.priority > b.priority || (a.priority == b.priority && a.sequence < b.sequence) }
        var waiting: [Int: Float] = [:]
        var running: [Int: DownloadOperation] = [:]
    }

    private let state = Mutex(State())
    private let limit: @Sendable () -> Int

    init(limit: @escaping @Sendable () -> Int) {
        self.limit = limit
    }

    func enqueue(_ operation: DownloadOperation) {
        let priority = operation.priority
        state.withLock { state in
            state.waiting[operation.sequence] = priority
            state.heap.push(Entry(operation: operation, priority: priority, sequence: operation.sequence))
        }
        startWaiting()
    }

    /// A waiting download's priority rose.
    func reprioritize(_ operation: DownloadOperation, to priority: Float) {
        state.withLock { state in
            guard let current = state.waiting[operation.sequence], priority > current else { return }
            state.waiting[operation.sequence] = priority
            state.heap.push(Entry(operation: operation, priority: priority, sequence: operation.sequence))
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
            while state.running.count < limit, let entry = state.heap.pop() {
                // Skip entries for downloads that ended or whose priority has since been raised.
                guard let priority = state.waiting[entry.sequence], priority == entry.priority else { continue }
                state.waiting[entry.sequence] = nil
                state.running[entry.sequence] = entry.operation
                starting.append(entry.operation)
            }
            return starting
        }
        for operation in starting { operation.start() }
    }
}
