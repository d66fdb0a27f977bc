import Foundation
import Synchronization

/// Runs at most ``ImageDownloader/maximumConcurrentDownloads`` downloads at once; waiting ones
/// start highest priority first, then in arrival order.
final class DownloadScheduler: Sendable {
    private struct State {
        var pending: [DownloadOperation] = []
        var running: [Int: DownloadOperation] = [:]
    }

    private let state = Mutex(State())
    private let limit: @Sendable () -> Int

    init(limit: @escaping @Sendable () -> Int) {
        self.limit = limit
    }

    func enqueue(_ operation: DownloadOperation) {
        state.withLock { $0.pending.append(operation) }
        startWaiting()
    }

    /// A pending download's priority changed: the order is recomputed when the next slot frees.
    func reprioritize() {
        startWaiting()
    }

    /// Forgets `operation`, pending or running (idempotent), and fills the freed slot.
    func ended(_ operation: DownloadOperation) {
        state.withLock { state in
            state.running[operation.sequence] = nil
            state.pending.removeAll { $0 === operation }
        }
        startWaiting()
    }

    /// How many downloads run and wait, for tests and diagnostics.
    var counts: (running: Int, pending: Int) { state.withLock { ($0.running.count, $0.pending.count) } }

    private func startWaiting() {
        let limit = limit()
        let starting = state.withLock { state -> [DownloadOperation] in
            var starting: [DownloadOperation] = []
            while state.running.count < limit, !state.pending.isEmpty {
                var best = 0
                for index in state.pending.indices.dropFirst() {
                    let candidate = state.pending[index], current = state.pending[best]
                    if candidate.priority > current.priority
                        || (candidate.priority == current.priority && candidate.sequence < current.sequence) {
                        best = index
                    }
                }
                let operation = state.pending.remove(at: best)
                state.running[operation.sequence] = operation
                starting.append(operation)
            }
            return starting
        }
        for operation in starting { operation.start() }
    }
}
