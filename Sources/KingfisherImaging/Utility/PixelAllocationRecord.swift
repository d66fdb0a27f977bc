// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/// The largest pixel buffer ``PixelBuffer`` allocated while a recording was on: how tests prove
/// that a decode was reduced (a 4000 x 3000 photo resized to 300 x 200 must never hold 12 MP),
/// not only that its output is right.
///
/// Bound to the calling task (or thread, outside one), not global: processors run synchronously
/// on their caller, and tests that record run in parallel. Buffers allocated on other tasks or
/// queues (frames of an animation decoded on demand later) are not seen.
package final class PixelAllocationRecord: Sendable {
    /// The recording on, if any: `nil` unless inside ``recording(_:)``.
    @TaskLocal static var current: PixelAllocationRecord?

    private let largest = Locked(0)

    private init() {}

    /// Runs `body` and returns its result with the largest pixel buffer, in bytes, allocated
    /// while it ran (0 when none was).
    package static func recording<Result>(
        _ body: () throws -> Result
    ) rethrows -> (result: Result, largestByteCount: Int) {
        let record = PixelAllocationRecord()
        let result = try $current.withValue(record, operation: body)
        return (result, record.largest.withLock { $0 })
    }

    /// Notes a buffer of `byteCount` bytes.
    func note(_ byteCount: Int) {
        largest.withLock { $0 = max($0, byteCount) }
    }
}
