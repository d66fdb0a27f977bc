// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Dispatch
import Kingfisher

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the memory a burst of connections took back to the system once the burst has passed.
///
/// glibc keeps freed memory in its arenas for reuse, so after thousands of connections closed
/// the process would stay at its peak size for good; `malloc_trim` returns the free pages. It
/// runs a second after open connections fell to half their peak (by at least
/// ``threshold``), on a background queue, and at most once a second.
final class BurstMemoryRelease: Sendable {
    /// The fewest connections gone since the peak that make a trim worth it.
    static let threshold = 64

    private struct State {
        var open = 0
        var peak = 0
        var scheduled = false
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "com.kingfisher-linux.serve.memory-release", qos: .utility)

    /// Called after each release (a counter's increment).
    private let onRelease: @Sendable () -> Void

    init(onRelease: @escaping @Sendable () -> Void = {}) {
        self.onRelease = onRelease
    }

    /// glibc's `malloc_trim`, looked up at run time: Swift's Glibc module leaves `malloc.h`
    /// out, and other C libraries (musl) have none.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
            return nil
        #endif
    }()

    /// Told the open connections after each change.
    func connectionsChanged(open: Int) {
        let trims = state.withLock { state -> Bool in
            state.open = open
            state.peak = max(state.peak, open)
            guard !state.scheduled, state.peak - open >= Self.threshold, open <= state.peak / 2 else { return false }
            state.scheduled = true
            return true
        }
        guard trims else { return }
        queue.asyncAfter(deadline: .now() + 1) { [state, onRelease] in
            _ = Self.mallocTrim?(0)
            onRelease()
            state.withLock { state in
                state.scheduled = false
                state.peak = state.open
            }
        }
    }
}
