// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An inotify watch on a directory: a test waits for a file in it to be created or written (a
/// server's log line), instead of looking again after a sleep.
package final class DirectoryWatch: @unchecked Sendable {
    // Read only by ``waitForChange(upTo:)``, which one caller at a time uses.
    private let descriptor: Int32

    package struct Failed: Error, CustomStringConvertible {
        package var description: String
    }

    /// Watches `directory` for files created, written or closed after writing.
    package init(_ directory: URL) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw Failed(description: "inotify_init1 failed: errno \(errno)") }
        let events = UInt32(IN_CREATE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, directory.path, events) >= 0 else {
            close(descriptor)
            throw Failed(description: "inotify_add_watch on \(directory.path) failed: errno \(errno)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Blocks until something in the directory changes (`true`), or `milliseconds` pass with no
    /// change (`false`); drains the events, so the next call waits for a new one.
    package func waitForChange(upTo milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = read(descriptor, &buffer, buffer.count)
        return true
    }
}
