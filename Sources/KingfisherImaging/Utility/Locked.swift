// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Glibc

/// A value behind a lock, shared by reference: the one lock type of this library.
///
/// A pthread mutex rather than Synchronization's `Mutex`: on Linux `Mutex` waits with raw futex
/// system calls that ThreadSanitizer does not see, so it reports every contended access made
/// under one as a data race, hiding real races among false ones. pthread mutexes are
/// understood by every sanitizer and cost the same uncontended. Error-checking, so that taking
/// the lock again on the same thread traps (as `Mutex` does) instead of hanging. Like `Mutex`, it
/// may hold a value that is not `Sendable` (an LRU list, a scheduler's heap): such a value is
/// reached only inside ``withLock(_:)``, and nothing non-`Sendable` may be returned out of it.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        // Locked outside the precondition, which -Ounchecked does not evaluate.
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "Locked: the lock was taken again on the thread holding it")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
