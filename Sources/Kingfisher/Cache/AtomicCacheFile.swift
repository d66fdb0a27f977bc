// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX file operations under ``DiskStorage/Backend``: atomic writes with explicit dates,
/// reads that check expiration on the opened file, and stat-based metadata.
enum AtomicCacheFile {
    /// A read file and its dates.
    struct Contents {
        var data: Data
        var expiration: Date
    }

    /// What `stat` says about a file.
    struct Status: Equatable {
        var inode: UInt64
        var isRegularFile: Bool
        var size: UInt
        var expiration: Date
        var lastAccess: Date
        var changed: Date
    }

    /// A file found while listing the directory.
    struct Entry {
        var path: String
        var isTemporary: Bool
        var status: Status
        var size: UInt { status.size }
        var expiration: Date { status.expiration }
        var lastAccess: Date { status.lastAccess }
        var changed: Date { status.changed }
    }

    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(AtomicFile.temporarySuffix)
    }

    private static func date(_ time: Glibc.timespec) -> Date {
        Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
    }

    /// Writes `data` atomically to `url` with its access time `lastAccess` and modification
    /// time `expiration`. A missing directory is created and the write tried once more.
    static func write(_ data: Data, to url: URL, lastAccess: Date, expiration: Date) throws(AtomicFile.Failure) {
        let dates = AtomicFile.Dates(lastAccess: lastAccess, modification: expiration)
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(data, to: url, dates: dates)
        } catch .write(let error) where error.code == .ENOENT {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(data, to: url, dates: dates)
        }
    }

    /// Reads the file at `url` if it has not expired at `now`; then, unless `extend` is `nil`,
    /// sets its access time to `now` and its expiration to what `extend` returns for the current
    /// expiration and last access. `nil` when the file does not exist or has expired.
    static func read(_ url: URL, now: Date, extend: ((_ expiration: Date, _ lastAccess: Date) -> Date)?) throws -> Contents? {
        let fd = openWithoutAccessTime(url.path)
        guard fd >= 0 else {
            let failure = AtomicFile.posixError()
            // As in Kingfisher, a file that cannot be seen (missing, or in a directory the
            // process may not search) is a miss; only a file that exists and cannot be read fails.
            var seen = stat()
            if failure.code == .ENOENT || failure.code == .ENOTDIR || stat(url.path, &seen) != 0 { return nil }
            throw failure
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw AtomicFile.posixError() }
        let expiration = date(info.st_mtim)
        guard expiration > now else { return nil }
        let size = Int(info.st_size)
        var data = Data(count: size)
        let complete = try data.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < size {
                let count = Glibc.read(fd, raw.baseAddress! + offset, size - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw AtomicFile.posixError()
                }
                if count == 0 { return false }
                offset += count
            }
            return true
        }
        guard complete else { throw AtomicFile.posixError(EIO) }
        if let extend {
            var times = [AtomicFile.timespec(now), AtomicFile.timespec(extend(expiration, date(info.st_atim)))]
            _ = futimens(fd, &times)  // Only bookkeeping: a read-only cache still serves.
        }
        return Contents(data: data, expiration: expiration)
    }

    /// Sets the access time of the file at `url` to `now` and its expiration to what `extend`
    /// returns for the current expiration and last access, without reading it. Returns `false`
    /// when the file does not exist or has expired at `now`.
    static func touch(_ url: URL, now: Date, extend: (_ expiration: Date, _ lastAccess: Date) -> Date) -> Bool {
        let fd = openWithoutAccessTime(url.path)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        let expiration = date(info.st_mtim)
        guard expiration > now else { return false }
        var times = [AtomicFile.timespec(now), AtomicFile.timespec(extend(expiration, date(info.st_atim)))]
        return futimens(fd, &times) == 0
    }

    /// Opens `path` for reading without the kernel recording the read as an access (`relatime`
    /// would, since a cache file's modification time, its expiration, is in the future): the
    /// access time is the cache's own record of the last access, which `.cacheTime` extension
    /// and size cleaning read. `O_NOATIME` needs the file's owner; another user reads plainly.
    private static func openWithoutAccessTime(_ path: String) -> Int32 {
        // Linux's O_NOATIME, which Glibc declares only for _GNU_SOURCE.
        let noAccessTime: Int32 = 0o1000000
        let fd = open(path, O_RDONLY | O_CLOEXEC | noAccessTime)
        return fd < 0 && errno == EPERM ? open(path, O_RDONLY | O_CLOEXEC) : fd
    }

    /// Removes the entry's file unless it changed since it was listed (a writer may have renamed
    /// a fresh file into place meanwhile). Returns whether it is gone.
    static func removeIfUnchanged(_ entry: Entry) -> Bool {
        guard let now = status(entry.path) else { return true }
        guard now.inode == entry.status.inode, now.expiration == entry.status.expiration else { return false }
        return unlink(entry.path) == 0 || errno == ENOENT
    }

    /// `stat` of `path`, or `nil` when it does not exist.
    static func status(_ path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(
            inode: UInt64(info.st_ino), isRegularFile: (info.st_mode & S_IFMT) == S_IFREG, size: UInt(max(0, info.st_size)),
            expiration: date(info.st_mtim), lastAccess: date(info.st_atim), changed: date(info.st_ctim))
    }
}
