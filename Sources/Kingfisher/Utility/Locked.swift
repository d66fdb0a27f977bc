import Glibc

/// A value behind a lock, shared by reference: the one lock type of this library.
///
/// A pthread mutex rather than Synchronization's `Mutex`: on Linux `Mutex` waits with raw futex
/// system calls that ThreadSanitizer does not see, so it reports every contended access made
/// under one as a data race, hiding real races among false ones. pthread mutexes are
/// understood by every sanitizer and cost the same uncontended.
final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
